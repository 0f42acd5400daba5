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

import email
import email.policy
import http.server
import json
import os
import re
import subprocess
import struct
import sys
import tempfile
import threading
import time
import urllib.error
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
from kinship_e2e import Checks, admin, demo_credentials, start_server  # noqa: E402

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
    maildir = os.environ.get("KINSHIP_TEST_SMTP_MAILDIR")
    if not maildir:
        sys.exit("error: no SMTP sink (KINSHIP_TEST_SMTP_PORT, KINSHIP_TEST_SMTP_MAILDIR): run this from scripts/test")
    database = os.path.join(work, "web.sqlite")
    server, base, banner = start_server(kinship, database, work, extra=[
        "--smtp-host", "127.0.0.1", "--smtp-port", os.environ["KINSHIP_TEST_SMTP_PORT"], "--smtp-security", "none",
        "--mail-from", "no-reply@kinship.test"])
    web = None
    try:
        web = Web(base, folder, check)
        client_id, client_secret = demo_credentials(banner)
        run(web, check, work, client_id)
        developers_and_admin(web, check, kinship, database, (client_id, client_secret))
        account_security(web, check, kinship, database, maildir, (client_id, client_secret))
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


class AppServer:
    """An app's server for the checks: records each callback POSTed to it and answers as Facebook
    asks data deletion callbacks to (a status URL and a confirmation code)."""

    def __init__(self):
        received = self.received = []

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length", 0))).decode()
                received.append((self.path, body))
                answer = json.dumps({"url": "http://127.0.0.1/status?id=abc", "confirmation_code": "abc"}).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(answer)))
                self.end_headers()
                self.wfile.write(answer)

            def log_message(self, *_):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"

    def __enter__(self):
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        return self

    def __exit__(self, *_):
        self.server.shutdown()
        self.server.server_close()

    def wait_for(self, path, timeout=15):
        deadline = time.time() + timeout
        while time.time() < deadline:
            if any(received_path == path for received_path, _ in self.received):
                return True
            time.sleep(0.1)
        return False


def graph_error(base, token):
    """The Graph error (code, subcode) GET /me answers with `token`, or None when it is served."""
    request = urllib.request.Request(base + "/me", headers={"Authorization": "Bearer " + token})
    try:
        urllib.request.urlopen(request, timeout=10).read()
        return None
    except urllib.error.HTTPError as error:
        body = json.loads(error.read())["error"]
        return body.get("code"), body.get("error_subcode")


def device_token(web, credentials, person_email, password):
    """An access token for a person through a device login finished in the browser."""
    client_id = credentials[0]
    started = json.loads(urllib.request.urlopen(web.base + "/oauth/device_authorization", timeout=10, data=urllib.parse.urlencode(
        {"client_id": client_id}).encode()).read())
    web.driver.delete_all_cookies()
    web.open("/login")
    web.fill({"login": person_email, "password": password})
    web.press("form[action='/login'] button[type=submit]")
    web.open("/device")
    web.fill({"user_code": started["user_code"]})
    web.press("form[action='/device'] button[type=submit]")
    web.press("button[value=continue]")
    answer = urllib.request.urlopen(web.base + "/oauth/access_token", timeout=10, data=urllib.parse.urlencode({
        "grant_type": "urn:ietf:params:oauth:grant-type:device_code", "device_code": started["device_code"],
        "client_id": client_id}).encode()).read()
    return json.loads(answer)["access_token"]


def mail_to(maildir, recipient, timeout=15):
    """The newest message the SMTP sink received for `recipient`, parsed."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        folder = os.path.join(maildir, "new")
        found = []
        for name in sorted(os.listdir(folder)) if os.path.isdir(folder) else []:
            with open(os.path.join(folder, name), "rb") as file:
                message = email.message_from_binary_file(file, policy=email.policy.default)
            if recipient in str(message["To"]):
                found.append(message)
        if found:
            return found[-1]
        time.sleep(0.2)
    return None


def client_credentials(base, client_id, secret):
    """The HTTP status of a client_credentials grant with this secret."""
    try:
        urllib.request.urlopen(base + "/oauth/access_token", timeout=10, data=urllib.parse.urlencode(
            {"grant_type": "client_credentials", "client_id": client_id, "client_secret": secret}).encode()).read()
        return 200
    except urllib.error.HTTPError as error:
        return error.code


def shown_secret(web, label):
    """The secret a developer page shows once, next to `label`."""
    for box in web.driver.find_elements(By.CSS_SELECTOR, ".secret"):
        if label in box.text:
            return box.find_element(By.TAG_NAME, "code").text
    return None


def developers_and_admin(web, check, kinship, database, credentials):
    """An app made on /developers (a bad redirect URI explained, the secret shown once and rotated),
    and an administrator suspending a person and lifting it on /admin."""
    web.log_in("sofia@example.org")
    web.open("/developers")
    web.shoot("developers", phone=True)
    web.fill({"name": "Sofia's Notes", "redirect_uris": "https://notes.example.org/cb\nhttp://notes.example.org/cb"})
    web.find("#type-confidential").click()
    web.click_text("Make app")
    check("developers: a bad redirect URI is explained and nothing is made",
          "plain http on a host that is not loopback" in web.text() and "Nothing was saved" in web.text(), web.text()[:400])
    web.shoot("developers-bad-uri")
    web.fill({"redirect_uris": "https://notes.example.org/cb"})
    web.click_text("Make app")
    first = shown_secret(web, "Client secret")
    client_id = web.find(".facts code").text
    check("developers: the app is made and its secret shown once", first and "Your app is made" in web.text(), web.text()[:300])
    web.shoot("developer-app", phone=True)
    check("developers: the secret works", client_credentials(web.base, client_id, first) == 200)
    web.open("/developers/apps/" + client_id)
    check("developers: the secret is not shown again", first not in web.driver.page_source)
    web.click_text("Make a new client secret")
    second = shown_secret(web, "Client secret")
    check("developers: a rotation shows the new secret", second and second != first)
    check("developers: after a rotation with no grace, the old secret stops and the new one works",
          (client_credentials(web.base, client_id, first), client_credentials(web.base, client_id, second)) == (401, 200))

    tom_token = device_token(web, credentials, "tom@example.org", PASSWORD)
    code, _, error = admin(kinship, database, "users", "grant-admin", "xiaoming@example.org")
    check("admin: kinship users grant-admin makes Wang an administrator", code == 0, error)
    web.log_in("xiaoming@example.org")
    web.open("/admin")
    check("admin: the page lists people and apps", "Tom Baker" in web.text() and "Sofia's Notes" in web.text(), web.text()[:400])
    web.shoot("admin", phone=True)
    web.press("button[aria-label='Suspend Tom Baker']")
    check("admin: Tom is suspended", "The account is suspended" in web.text(), web.text()[:300])
    check("admin: Tom's token answers Graph 190 / 459", graph_error(web.base, tom_token) == (190, 459), graph_error(web.base, tom_token))
    web.driver.delete_all_cookies()
    web.open("/login")
    web.fill({"login": "tom@example.org", "password": PASSWORD})
    web.press("form[action='/login'] button[type=submit]")
    check("admin: a suspended person is told so at login", "This account is suspended" in web.text(), web.text()[:300])
    web.shoot("login-suspended")
    web.log_in("xiaoming@example.org")
    web.open("/admin")
    web.press("button[aria-label=\"Lift Tom Baker's suspension\"]")
    check("admin: the suspension is lifted", "The suspension is lifted" in web.text())
    web.log_in("tom@example.org")
    check("admin: Tom logs in again", "/account" in web.driver.current_url)


def account_security(web, check, kinship, database, maildir, credentials):
    """Change a password, reset it from the mail the SMTP sink received, delete an account."""
    sofia, tom = "sofia@example.org", "tom@example.org"
    new_password, reset_password = "a second password", "a third password, reset"
    token = device_token(web, credentials, sofia, PASSWORD)
    check("security: a token from before the change works", graph_error(web.base, token) is None)

    web.log_in(sofia)
    web.open("/account/security")
    check("security: the page lists this browser", "(this browser)" in web.text() and "Chrome" in web.text(), web.text()[:400])
    web.shoot("security", phone=True)
    web.fill({"current_password": "not my password", "new_password": new_password, "new_password_again": new_password})
    web.click_text("Change password")
    check("security: a wrong current password is refused", "not your current password" in web.text())
    web.fill({"current_password": PASSWORD, "new_password": new_password, "new_password_again": new_password})
    web.click_text("Change password")
    check("security: the change is confirmed", "Your password is changed" in web.text(), web.text()[:300])
    web.shoot("security-changed")
    check("security: the token from before the change answers Graph 190 / 460", graph_error(web.base, token) == (190, 460),
          graph_error(web.base, token))

    web.press("form[action='/logout'] button")
    web.open("/login")
    web.click_text("Forgot your password?", tag="a")
    web.fill({"email": sofia})
    web.shoot("password-forgot", phone=True)
    web.click_text("Send the link")
    check("reset: the page says a link is on its way", "Check your email" in web.text(), web.text()[:300])
    message = mail_to(maildir, sofia)
    check("reset: the SMTP server received the mail", message is not None)
    body = message.get_content() if message else ""
    link = re.search(r"https?://\S+/password/reset\?token=\S+", body)
    check("reset: the mail is addressed to Sofia and carries a link", "Hello Sofia Rossi" in body and link, body[:300])
    web.driver.get(link.group(0))
    web.shoot("password-reset")
    web.fill({"new_password": reset_password, "new_password_again": reset_password})
    web.click_text("Set password")
    check("reset: the new password is set", "Your password is set" in web.text(), web.text()[:300])
    web.driver.get(link.group(0))
    check("reset: the link works once", "does not work any more" in web.text())
    web.driver.delete_all_cookies()
    web.open("/login")
    web.fill({"login": sofia, "password": reset_password})
    web.press("form[action='/login'] button[type=submit]")
    check("reset: Sofia logs in with the password from the reset", "/account" in web.driver.current_url)

    # Tom uses the demo app too, whose server (played here) registered a data deletion callback.
    with AppServer() as app_server:
        code, _, error = admin(kinship, database, "apps", "callbacks", credentials[0], "--data-deletion-url", app_server.url + "/deletion")
        check("delete: the demo app's data deletion callback is set", code == 0, error)
        device_token(web, credentials, tom, PASSWORD)
        web.log_in(tom)
        web.open("/account/security")
        web.click_text("Delete your account…", tag="a")
        check("delete: the page says what happens", "cannot be undone" in web.text() and "Kinship Demo" in web.text(), web.text()[:500])
        web.shoot("delete-account", phone=True)
        web.fill({"password": PASSWORD})
        web.click_text("Delete my account for good")
        check("delete: the account is deleted", "Your account is deleted" in web.text(), web.text()[:300])
        web.shoot("account-deleted")
        check("delete: the app's server received the signed data deletion callback",
              app_server.wait_for("/deletion") and "signed_request=" in app_server.received[0][1], app_server.received)
    web.driver.delete_all_cookies()
    web.open("/login")
    web.fill({"login": sofia, "password": reset_password})
    web.press("form[action='/login'] button[type=submit]")
    web.open("/account/friends")
    check("delete: Tom is gone from Sofia's friends", "Tom Baker" not in web.text() and "Your friends (1)" in web.text(), web.text()[:300])


if __name__ == "__main__":
    main()
