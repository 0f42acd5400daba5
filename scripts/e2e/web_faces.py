#!/usr/bin/env python3
"""The web faces in a real headless Chromium, against a live `kinship serve`.

Signs up three people, befriends them through requests on the account pages, lets two of them
use the sample app, then walks the third through the sample app: untick email on consent and
see "Email not shared", re-ask and see the email, pick two friends in the picker (searching by
pinyin initials), revoke user_friends in Settings and see the picker explain the empty list, and
remove the app. Every page visited is screenshotted (desktop, plus some at phone size) into the
folder given, and passes the accessibility audit in accessibility_audit.js.

usage: web_faces.py KINSHIP_BINARY SCREENSHOT_FOLDER
"""

import json
import os
import struct
import sys
import tempfile
import time
import urllib.parse
import urllib.request
import zlib

from selenium import webdriver
from selenium.common.exceptions import StaleElementReferenceException, TimeoutException, WebDriverException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support import expected_conditions as seen
from selenium.webdriver.support.ui import WebDriverWait

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from kinship_e2e import Checks, demo_credentials, start_server  # noqa: E402

PASSWORD = "correct horse battery"
AUDIT = open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "accessibility_audit.js")).read()


def png(width, height):
    """A small striped PNG, wider than tall, so the page has to crop it."""
    rows = b"".join(b"\x00" + b"".join(bytes((x * 255 // width, 110, y * 255 // height)) for x in range(width))
                    for y in range(height))

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b"")


def left_document(element):
    """A wait condition: true once `element` is gone from the page. While Chromium swaps in the
    next page it reports an old node either as stale or as not belonging to the document."""
    def gone(_driver):
        try:
            element.is_enabled()
            return False
        except StaleElementReferenceException:
            return True
        except WebDriverException as error:
            if "does not belong to the document" in str(error):
                return True
            raise
    return gone

class Web:
    """One Chromium, the checks, the screenshots and the audits."""

    def __init__(self, base, folder, checks):
        options = webdriver.ChromeOptions()
        options.binary_location = os.environ.get("CHROMIUM", "/usr/bin/chromium")
        for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1200,1000",
                         "--disable-gpu", "--no-first-run", "--password-store=basic"):
            options.add_argument(argument)
        service = Service(os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver"))
        self.driver = webdriver.Chrome(service=service, options=options)
        self.driver.set_page_load_timeout(30)
        self.base, self.folder, self.check = base, folder, checks
        self.shots = 0
        self.audited = set()

    def open(self, path):
        self.driver.get(self.base + path)

    def wait(self, condition, timeout=10):
        return WebDriverWait(self.driver, timeout).until(condition)

    def text(self):
        return self.driver.find_element(By.TAG_NAME, "body").text

    def find(self, selector):
        return self.driver.find_element(By.CSS_SELECTOR, selector)

    def fill(self, values):
        for name, value in values.items():
            field = self.find(f"[name='{name}']")
            field.clear()
            field.send_keys(value)

    def follow(self, element):
        """Clicks something that loads a new page, and waits for that page."""
        old = self.driver.find_element(By.TAG_NAME, "html")
        element.click()
        self.wait(left_document(old))

    def press(self, selector):
        self.follow(self.find(selector))

    def click_text(self, text, tag="button"):
        for element in self.driver.find_elements(By.TAG_NAME, tag):
            if element.text.strip() == text and element.is_displayed():
                self.follow(element)
                return
        raise AssertionError(f"no visible <{tag}> saying {text!r} on {self.driver.current_url}")

    def shoot(self, name, audit=True, phone=False):
        """Screenshot the page (and at phone size too, when asked) and audit it once per name."""
        self.shots += 1
        self.driver.save_screenshot(os.path.join(self.folder, f"{self.shots:02d}-{name}.png"))
        if phone:
            self.driver.set_window_size(390, 844)
            time.sleep(0.2)
            self.driver.save_screenshot(os.path.join(self.folder, f"{self.shots:02d}-{name}-phone.png"))
            overflow = self.driver.execute_script(
                "return document.documentElement.scrollWidth - document.documentElement.clientWidth")
            self.check(f"{name}: fits a phone-sized screen without sideways scrolling", overflow <= 0, f"{overflow}px too wide")
            self.driver.set_window_size(1200, 1000)
        if audit and name not in self.audited:
            self.audited.add(name)
            problems = self.driver.execute_script(AUDIT)
            self.check(f"{name}: accessibility audit (labels, alt text, names, contrast)", not problems, "; ".join(problems[:6]))

    def sign_up(self, name, email):
        self.driver.delete_all_cookies()
        self.open("/signup")
        self.fill({"name": name, "email": email, "password": PASSWORD, "password_again": PASSWORD})
        self.press("form[action='/signup'] button[type=submit]")
        self.wait(seen.url_contains("/account"))

    def log_in(self, email):
        self.driver.delete_all_cookies()
        self.open("/login")
        self.fill({"login": email, "password": PASSWORD})
        self.press("form[action='/login'] button[type=submit]")
        self.wait(seen.url_contains("/account"))

    def consent(self, untick=()):
        """On the platform's consent page: untick what is asked, then continue."""
        self.wait(seen.presence_of_element_located((By.CSS_SELECTOR, "form[action='/dialog/oauth/confirm']")))
        for permission in untick:
            box = self.find(f"#permission-{permission}")
            if box.is_selected():
                box.click()
        self.press("button[value=continue]")
        self.wait(seen.url_contains("/sample"))

    def picker_names(self):
        return self.driver.execute_script(
            "return Array.from(document.querySelectorAll('#picker-list .friend')).map(f => f.textContent.trim())")

    def picker_index(self):
        return self.driver.execute_script(
            "return Array.from(document.querySelectorAll('#picker-index a')).map(a => a.textContent.trim())")

    def wait_for_picker(self, predicate, timeout=8):
        try:
            self.wait(lambda _: predicate(), timeout)
            return True
        except TimeoutException:
            return False


def main():
    kinship, folder = sys.argv[1], os.path.abspath(sys.argv[2])
    os.makedirs(folder, exist_ok=True)
    for old in os.listdir(folder):
        if old.endswith(".png"):
            os.remove(os.path.join(folder, old))
    check = Checks()
    work = tempfile.mkdtemp(prefix="kinship-web-")
    server, base, banner = start_server(kinship, os.path.join(work, "web.sqlite"), work)
    web = None
    try:
        web = Web(base, folder, check)
        run(web, check, work, demo_credentials(banner)[0])
    finally:
        if web:
            web.driver.quit()
        server.terminate()
        server.wait(timeout=30)
    print(f"{len(check.results) - len(check.failed)} of {len(check.results)} browser checks passed; "
          f"{web.shots if web else 0} screenshots in {folder}")
    if check.failed:
        print("server log: " + server.log_path)
        sys.exit(1)


def run(web, check, work, app_id):
    sofia, wang, tom = ("Sofia Rossi", "sofia@example.org"), ("王小明", "xiaoming@example.org"), ("Tom Baker", "tom@example.org")

    # Sign up: the rules are on the page, a mistake is explained, the form keeps what was typed.
    web.driver.delete_all_cookies()
    web.open("/signup")
    check("sign-up page states the password rules", "At least 8 characters" in web.text())
    web.shoot("signup", phone=True)
    web.fill({"name": "Sofia Rossi", "email": "sofia@example.org", "password": "short", "password_again": "short"})
    web.driver.execute_script("for (const f of document.querySelectorAll('input')) f.removeAttribute('minlength')")
    web.press("form[action='/signup'] button[type=submit]")
    check("a too-short password is refused with the rule", "8 to 72 bytes" in web.text(), web.text()[:200])
    check("the refused form keeps the name", web.find("#name").get_attribute("value") == "Sofia Rossi")
    web.shoot("signup-error")
    for person in (wang, tom, sofia):
        web.sign_up(*person)
    check("signing up lands on the profile page, logged in", "Welcome to Kinship" in web.text(), web.text()[:200])
    web.shoot("profile-welcome", phone=True)

    # Profile: a picture upload, shown cropped; a field change.
    picture = os.path.join(work, "wide.png")
    with open(picture, "wb") as file:
        file.write(png(300, 150))
    web.find("#picture").send_keys(picture)
    web.click_text("Upload picture")
    check("the picture upload is confirmed", "Your new picture is up" in web.text())
    shape = web.driver.execute_script(
        "const i = document.querySelector('img.avatar'); return [i.naturalWidth, i.naturalHeight, i.clientWidth, i.clientHeight, getComputedStyle(i).objectFit]")
    check("the 300×150 picture is shown cropped to a 120×120 circle", shape == [300, 150, 120, 120, "cover"], shape)
    web.fill({"hometown": "Torino"})
    web.click_text("Save profile")
    check("a profile change is saved", "Your profile was saved" in web.text()
          and web.find("#hometown").get_attribute("value") == "Torino")
    not_image = os.path.join(work, "notes.png")
    with open(not_image, "w") as file:
        file.write("not a picture")
    web.find("#picture").send_keys(not_image)
    web.click_text("Upload picture")
    check("a file that is not a PNG or JPEG is refused clearly", "must be a PNG or a JPEG" in web.text(), web.text()[:300])
    web.shoot("profile")

    # Friends through requests: Sofia finds Wang and Tom by name and asks; they answer.
    web.open("/account/friends")
    web.fill({"q": "xiao"})
    web.press("form[role=search] button")
    check("a name search that matches nobody says so", "Nobody with that name" in web.text())
    web.fill({"q": "王"})
    web.press("form[role=search] button")
    web.press("button[aria-label='Add friend: 王小明']")
    check("a friend request is sent", "Friend request sent" in web.text())
    web.fill({"q": "tom"})
    web.press("form[role=search] button")
    web.press("button[aria-label='Add friend: Tom Baker']")
    check("the sent requests are listed", "Requests you sent" in web.text() and "Tom Baker" in web.text())
    web.shoot("friends-requests-sent", phone=True)
    web.log_in(wang[1])
    web.open("/account/friends")
    check("the request waits for the other person", "Sofia Rossi" in web.text() and "Friend requests" in web.text())
    web.shoot("friends-incoming")
    web.press("button[aria-label=\"Accept Sofia Rossi's friend request\"]")
    check("accepting makes them friends", "You are friends now" in web.text() and "Your friends (1)" in web.text())
    web.log_in(tom[1])
    web.open("/account/friends")
    web.press("button[aria-label=\"Decline Sofia Rossi's friend request\"]")
    check("declining removes the request", "Request declined" in web.text() and "Your friends (0)" in web.text())
    web.fill({"q": "sofia"})
    web.press("form[role=search] button")
    web.press("button[aria-label='Add friend: Sofia Rossi']")
    web.log_in(sofia[1])
    web.open("/account/friends")
    web.press("button[aria-label=\"Accept Tom Baker's friend request\"]")
    check("Sofia has two friends after the requests", "Your friends (2)" in web.text(), web.text()[:400])
    web.shoot("friends")

    # Wang and Tom use the sample app and share their friend lists.
    for person in (wang, tom):
        web.log_in(person[1])
        web.open("/sample")
        web.click_text("Log in with Kinship", tag="a")
        web.consent()

    # Sofia and the sample app, logged out first.
    web.log_in(sofia[1])
    web.open("/sample")
    check("logged out: the status says so", "You're not logged in" in web.text())
    check("logged out: the Log in with Kinship button is there", web.find("a.kinship").text == "Log in with Kinship")
    check("logged out: the Friends button is disabled", not web.find("#open-picker").is_enabled())
    web.shoot("sample-logged-out", phone=True)

    web.click_text("Log in with Kinship", tag="a")
    web.wait(seen.presence_of_element_located((By.CSS_SELECTOR, "#permission-email")))
    check("the consent page lists email, ticked", web.find("#permission-email").is_selected())
    web.shoot("dialog-consent")
    web.consent(untick=["email"])
    check("logged in: the status names the person", "You're logged in as Sofia Rossi" in web.text(), web.text()[:300])
    check("email unticked: 'Email not shared'", "Email not shared" in web.text())
    check("logged in: the profile picture is shown", web.find("img.avatar").get_attribute("alt") == "Profile picture of Sofia Rossi")
    check("logged in: the Friends button is enabled", web.find("#open-picker").is_enabled())
    web.shoot("sample-email-not-shared", phone=True)

    web.click_text("Share your email", tag="a")
    web.wait(seen.presence_of_element_located((By.CSS_SELECTOR, "#permission-email")))
    web.shoot("dialog-rerequest")
    web.consent()
    check("re-asked and granted: the email is shown", web.find("#email").text == sofia[1], web.text()[:300])
    web.shoot("sample-logged-in")

    # The picker: open by keyboard, search by pinyin initials, pick two, Done.
    web.find("#open-picker").send_keys(Keys.ENTER)
    web.wait(seen.visibility_of_element_located((By.ID, "picker")))
    check("the picker lists both friends who use the app",
          web.wait_for_picker(lambda: sorted(web.picker_names()) == sorted(["Tom Baker", "王小明"])), web.picker_names())
    check("the picker has an A–Z index", web.picker_index() == ["T", "W"])
    web.shoot("picker")
    web.find("#picker-search").send_keys("xm")
    check("typing pinyin initials 'xm' leaves only 王小明", web.wait_for_picker(lambda: web.picker_names() == ["王小明"]),
          web.picker_names())
    web.shoot("picker-search")
    web.find("#picker-list input[type=checkbox]").click()
    web.find("#picker-search").send_keys(Keys.CONTROL, "a")
    web.find("#picker-search").send_keys(Keys.BACKSPACE)
    check("clearing the search shows everyone again", web.wait_for_picker(lambda: len(web.picker_names()) == 2))
    boxes = web.driver.find_elements(By.CSS_SELECTOR, "#picker-list input[type=checkbox]")
    check("the pick survives the search", [box.is_selected() for box in boxes] == [False, True])
    boxes[0].click()
    web.find("input[name=sort][value=last]").click()
    check("sorting by last name re-sorts (Baker under B)",
          web.wait_for_picker(lambda: web.picker_index() == ["B", "W"]))
    selected = web.driver.execute_script(
        "return Array.from(document.querySelectorAll('.friend')).filter(f => getComputedStyle(f).outlineStyle !== 'none').length")
    check("both picks are visibly selected", selected == 2, selected)
    web.shoot("picker-picked")
    web.find("#picker-done").click()
    picked = [item.text for item in web.driver.find_elements(By.CSS_SELECTOR, "#picked-list li")]
    check("Done lists whom you picked", sorted(picked) == sorted(["Tom Baker", "王小明"]), picked)
    web.shoot("sample-picked")
    web.find("#open-picker").click()
    web.wait(seen.visibility_of_element_located((By.ID, "picker")))
    web.wait_for_picker(lambda: len(web.picker_names()) == 2)
    web.driver.find_elements(By.CSS_SELECTOR, "#picker-list input[type=checkbox]")[0].click()
    web.find("#picker-cancel").click()
    picked = [item.text for item in web.driver.find_elements(By.CSS_SELECTOR, "#picked-list li")]
    check("Cancel keeps the earlier picks", sorted(picked) == sorted(["Tom Baker", "王小明"]), picked)

    # Settings: revoke user_friends, and the picker explains the empty list.
    web.click_text("Settings", tag="a")
    check("settings lists the permissions the app holds", "Your friends list" in web.text() or "friends" in web.text().lower())
    web.shoot("sample-settings", phone=True)
    web.press("form[action='/sample/settings/revoke'] input[value=user_friends] ~ button")
    check("revoking user_friends is confirmed", "can no longer see" in web.text(), web.text()[:300])
    web.open("/sample")
    web.find("#open-picker").click()
    web.wait(seen.visibility_of_element_located((By.ID, "picker")))
    check("the picker explains why it is empty",
          web.wait_for_picker(lambda: "not let Kinship Sample see your friends list" in web.find("#picker-problem").text),
          web.find("#picker-problem").text)
    check("the picker offers to share the friends list again",
          web.find("#picker-problem-action").text == "Share your friends list")
    web.shoot("picker-permission-revoked")
    web.find("#picker-cancel").click()

    # The platform's "Apps you use" shows the sample app and what it holds.
    web.open("/account/apps")
    check("'Apps you use' lists Kinship Sample", "Kinship Sample" in web.text())
    check("'Apps you use' shows user_friends as not shared", "Not shared" in web.text())
    web.shoot("apps", phone=True)

    # Remove the app from the sample's settings: logged out, with the reason.
    web.open("/sample/settings")
    web.click_text("Remove app")
    check("removing the app logs out of the sample", "You're not logged in" in web.text())
    check("the page says the app was removed and offers to log in", "Kinship Sample was removed" in web.text())
    web.shoot("sample-removed")
    web.open("/account/apps")
    check("'Apps you use' no longer lists Kinship Sample", "Kinship Sample" not in web.text())

    # A device login finished in the browser: type the code, compare it on the consent page, done.
    started = json.loads(urllib.request.urlopen(web.base + "/oauth/device_authorization", timeout=10, data=urllib.parse.urlencode(
        {"client_id": app_id, "scope": "email"}).encode()).read())
    web.open("/device")
    web.fill({"user_code": started["user_code"].lower()})
    web.shoot("device-code", phone=True)
    web.press("form[action='/device'] button[type=submit]")
    check("the device consent page shows the code to compare with the device", started["user_code"] in web.text(), web.text()[:300])
    web.shoot("device-consent", phone=True)
    web.press("button[value=continue]")
    check("the device login is confirmed", "You're logged in" in web.text(), web.text()[:300])
    web.shoot("device-done")

    # Errors a person can understand: Cancel on consent, a stale login answer, a form from elsewhere.
    web.open("/sample")
    web.click_text("Log in with Kinship", tag="a")
    web.wait(seen.presence_of_element_located((By.CSS_SELECTOR, "button[value=cancel]")))
    web.press("button[value=cancel]")
    web.wait(seen.url_contains("/sample"))
    check("Cancel on consent: 'Login cancelled' with Try again", "Login cancelled" in web.text() and "Try again" in web.text())
    web.shoot("sample-login-cancelled")
    web.open("/sample/callback?code=kac_forged&state=forged")
    check("a forged login answer is refused with a way forward", "That login link is stale" in web.text())
    web.open("/account/friends")
    web.driver.execute_script("document.querySelector('form[action=\"/account/friends\"] input[name=csrf_token]').value = 'forged'")
    web.press("button[aria-label='Unfriend Tom Baker']")
    check("a form with a forged CSRF token changes nothing", "This form expired" in web.text())
    web.shoot("error-form-expired")
    web.open("/account/friends")
    check("…and Tom is still a friend", "Your friends (2)" in web.text())

    # Log out of the platform: the account pages ask to log in again.
    web.press("form[action='/logout'] button")
    web.open("/account/apps")
    check("after logging out, account pages ask to log in", "Log in to Kinship" in web.text())
    web.shoot("login", phone=True)


if __name__ == "__main__":
    main()
