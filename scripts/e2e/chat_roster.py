#!/usr/bin/env python3
"""The chat roster is the Kinship friend list, on a real Prosody 0.12 with the Kinship modules.

slixmpp clients (nobody here wrote them) log in with Kinship tokens; people act on the web pages.
Checked: the roster holds the friends with their profile names; a friend request on the web is
pending on both rosters and accepted on the web becomes "both", with roster pushes and each
other's presence within 1 s; unfriending on the web removes the items live; a subscription sent
from a chat client is a friend request on /account/friends, and "subscribed" back a friendship;
removing a roster item unfriends; an address that is not a Kinship person is refused; roster
versioning answers an unchanged roster with nothing; a new profile name reaches the rosters.
vCards are the profiles (names, picture) with the picture's hash in presence (XEP-0153), and
setting one is refused; messages reach friends online, wait for friends offline, and are archived
(XEP-0313).

    chat_roster.py --kinship PATH [--database URL]
"""
import asyncio
import hashlib
import statistics
import sys
import time

import slixmpp

from kinship_chat import DOMAIN, ChatPerson, DemoPlatform, WebPerson, connect, off_thread
from kinship_e2e import Checks, log_in

check = Checks()
PASSWORD = "kinship-demo"


async def roster_version(person):
    iq = person.make_iq_get(queryxmlns="jabber:iq:roster")
    answer = await iq.send(timeout=10)
    return answer["roster"]["ver"], len(answer["roster"]["items"])


async def roster_with_version(person, version):
    iq = person.make_iq_get(queryxmlns="jabber:iq:roster")
    iq["roster"]["ver"] = version
    answer = await iq.send(timeout=10)
    return answer.xml.find("{jabber:iq:roster}query"), len(answer["roster"]["items"])


async def scenario(port, cafile, base, people, tokens, latencies):
    ada, grace, zhang, emile = (people[email] for email in ("ada@example.com", "grace@example.com", "zhangwei@example.com",
                                                             "emile@example.com"))
    web = {email: WebPerson(base, email, PASSWORD) for email in ("grace@example.com", "zhangwei@example.com", "emile@example.com")}
    ada_chat, grace_chat, zhang_chat = (ChatPerson(people[email], tokens[email], cafile)
                                        for email in ("ada@example.com", "grace@example.com", "zhangwei@example.com"))
    await connect(port, ada_chat, grace_chat, zhang_chat)

    friends = {uid for uid in (grace, people["alan@example.com"], zhang, emile)}
    items = {uid: ada_chat.item(uid) for uid in friends}
    check("Ada's roster is her four friends, each with subscription both", all(item and item[0] == "both" for item in items.values()), items)
    check("roster names come from the profiles", ada_chat.item(zhang)[2] == "张伟" and ada_chat.item(grace)[2] == "Grace Hopper",
          items)
    check("people who are not friends are not on the roster", grace_chat.item(zhang) is None and zhang_chat.item(grace) is None)

    version, count = await roster_version(ada_chat)
    query, again = await roster_with_version(ada_chat, version)
    check("roster versioning: the full roster carries a version", bool(version) and count == 4, (version, count))
    check("roster versioning: an unchanged roster costs an empty answer", query is None or again == 0, again)
    query, stale = await roster_with_version(ada_chat, "1")
    check("roster versioning: a stale version gets the whole roster", stale == 4, stale)

    # A friend request on the web: pending on both rosters.
    sent = time.time()
    await off_thread(web["grace@example.com"].friends, "request", zhang)
    pending_out = await grace_chat.until(lambda: (grace_chat.item(zhang) or (None, False))[1])
    asked = await zhang_chat.until(lambda: zhang_chat.saw("subscribe", f"{grace}@{DOMAIN}", sent))
    check("a web friend request shows as pending (ask=subscribe) on the sender's roster within 1 s",
          pending_out is not None and pending_out <= 1, pending_out)
    check("the recipient's client gets the subscription request within 1 s", asked is not None and asked <= 1, asked)

    # Accepted on the web: both ways, with presence.
    for _ in range(5):
        await off_thread(web["zhangwei@example.com"].friends, "accept", grace)
        accepted = time.time()
        both_grace = await grace_chat.until(lambda: (grace_chat.item(zhang) or ("",))[0] == "both")
        both_zhang = await zhang_chat.until(lambda: (zhang_chat.item(grace) or ("",))[0] == "both")
        sees = await grace_chat.until(lambda: grace_chat.saw("available", f"{zhang}@{DOMAIN}", accepted))
        seen = await zhang_chat.until(lambda: zhang_chat.saw("available", f"{grace}@{DOMAIN}", accepted))
        latencies.append(max(x or 9 for x in (both_grace, both_zhang)))
        if len(latencies) == 1:
            check("accepted on the web: both rosters say both within 1 s", both_grace is not None and both_grace <= 1
                  and both_zhang is not None and both_zhang <= 1, (both_grace, both_zhang))
            check("each sees the other's presence within 1 s", sees is not None and sees <= 1 and seen is not None and seen <= 1,
                  (sees, seen))
        unfriended = time.time()
        await off_thread(web["grace@example.com"].friends, "unfriend", zhang)
        gone = await grace_chat.until(lambda: grace_chat.item(zhang) is None)
        gone_too = await zhang_chat.until(lambda: zhang_chat.item(grace) is None)
        offline = await grace_chat.until(lambda: grace_chat.saw("unavailable", f"{zhang}@{DOMAIN}", unfriended))
        if len(latencies) == 1:
            check("unfriended on the web: the items leave both rosters within 1 s", gone is not None and gone <= 1
                  and gone_too is not None and gone_too <= 1, (gone, gone_too))
            check("the former friend goes offline on the roster", offline is not None, offline)
        await off_thread(web["grace@example.com"].friends, "request", zhang)
        await zhang_chat.until(lambda: zhang_chat.saw("subscribe", f"{grace}@{DOMAIN}", unfriended))

    # From a chat client: subscribe is a friend request Émile sees on the web (he is offline).
    started = time.time()
    zhang_chat.send_presence(pto=f"{emile}@{DOMAIN}", ptype="subscribe")
    out = await zhang_chat.until(lambda: (zhang_chat.item(emile) or (None, False))[1])
    check("a subscribe from a chat client is pending on its roster", out is not None, out)
    page = await off_thread(web["emile@example.com"].friends_page)
    check("… and is a friend request on /account/friends", "张伟" in page and "Accept" in page)
    emile_chat = ChatPerson(emile, tokens["emile@example.com"], cafile)
    await connect(port, emile_chat)
    asked = await emile_chat.until(lambda: emile_chat.saw("subscribe", f"{zhang}@{DOMAIN}", started))
    check("a person who comes online gets the requests waiting for them", asked is not None, asked)
    emile_chat.send_presence(pto=f"{zhang}@{DOMAIN}", ptype="subscribed")
    both = await zhang_chat.until(lambda: (zhang_chat.item(emile) or ("",))[0] == "both")
    check("subscribed from the chat client makes them friends on both rosters", both is not None and
          (emile_chat.item(zhang) or ("",))[0] == "both", both)
    page = await off_thread(web["emile@example.com"].friends_page)
    check("… and on the web pages", "Unfriend 张伟" in page)

    # Removing the roster item ends the friendship.
    emile_chat.del_roster_item(f"{zhang}@{DOMAIN}")
    gone = await zhang_chat.until(lambda: zhang_chat.item(emile) is None)
    check("removing a roster item unfriends (the other roster loses it too)", gone is not None, gone)
    page = await off_thread(web["emile@example.com"].friends_page)
    check("… and on the web pages", "Unfriend 张伟" not in page)

    # Not Kinship people.
    errors = []
    zhang_chat.add_event_handler("presence_error", lambda stanza: errors.append((stanza["from"].bare, stanza["error"]["condition"])))
    zhang_chat.send_presence(pto=f"nobody-here@{DOMAIN}", ptype="subscribe")
    zhang_chat.send_presence(pto="someone@elsewhere.example", ptype="subscribe")
    await zhang_chat.until(lambda: len(errors) == 2)
    check("a subscription to an address that is not a Kinship person is refused (item-not-found)",
          sorted(errors) == sorted([(f"nobody-here@{DOMAIN}", "item-not-found"), ("someone@elsewhere.example", "item-not-found")]),
          errors)

    # A new name reaches the rosters of the people online.
    await off_thread(web["grace@example.com"].rename, "Grace Brewster Hopper")
    renamed = await ada_chat.until(lambda: (ada_chat.item(grace) or ("", False, ""))[2] == "Grace Brewster Hopper")
    check("a new profile name reaches a friend's roster within 1 s", renamed is not None and renamed <= 1, renamed)
    await cards_and_messages(port, cafile, people, tokens, ada_chat, grace_chat, zhang_chat)
    for client in (ada_chat, grace_chat, zhang_chat, emile_chat):
        client.disconnect()
    await asyncio.sleep(0.3)


async def cards_and_messages(port, cafile, people, tokens, ada_chat, grace_chat, zhang_chat):
    ada, grace, alan, zhang = (people[email] for email in ("ada@example.com", "grace@example.com", "alan@example.com",
                                                            "zhangwei@example.com"))
    card = (await ada_chat["xep_0054"].get_vcard(f"{zhang}@{DOMAIN}", timeout=10))["vcard_temp"]
    check("a friend's vCard is their profile: full name, given and family name, a picture",
          card["FN"] == "张伟" and card["N"]["GIVEN"] == "伟" and card["N"]["FAMILY"] == "张"
          and card["PHOTO"]["TYPE"] == "image/png" and len(card["PHOTO"]["BINVAL"]) > 100, card)
    photo_hash = hashlib.sha1(card["PHOTO"]["BINVAL"]).hexdigest()
    presence = ada_chat.presences.get(f"{zhang}@{DOMAIN}")
    advertised = presence.xml.find("{vcard-temp:x:update}x/{vcard-temp:x:update}photo") if presence is not None else None
    check("presence carries the picture's SHA-1 (XEP-0153)", advertised is not None and advertised.text == photo_hash,
          (advertised.text if advertised is not None else None, photo_hash))
    try:
        mine = ada_chat["xep_0054"].make_vcard()
        mine["FN"] = "Someone Else"
        await ada_chat["xep_0054"].publish_vcard(mine, timeout=10)
        refused = None
    except slixmpp.exceptions.IqError as error:
        refused = error.iq["error"]["condition"]
    check("setting one's vCard is refused (profiles are edited on Kinship)", refused == "not-allowed", refused)
    try:
        await ada_chat["xep_0054"].get_vcard(f"nobody-here@{DOMAIN}", timeout=10)
        missing = None
    except slixmpp.exceptions.IqError as error:
        missing = error.iq["error"]["condition"]
    check("a vCard of someone who is not a Kinship person: item-not-found", missing == "item-not-found", missing)

    ada_chat.send_message(mto=f"{grace}@{DOMAIN}", mbody="Hello Grace", mtype="chat")
    delivered = await grace_chat.until(lambda: (f"{ada}@{DOMAIN}", "Hello Grace") in grace_chat.messages)
    check("a message reaches a friend who is online", delivered is not None, grace_chat.messages)
    ada_chat.send_message(mto=f"{alan}@{DOMAIN}", mbody="Alan, are you there?", mtype="chat")
    await asyncio.sleep(0.5)
    alan_chat = ChatPerson(alan, tokens["alan@example.com"], cafile)
    await connect(port, alan_chat)
    waited = await alan_chat.until(lambda: (f"{ada}@{DOMAIN}", "Alan, are you there?") in alan_chat.messages)
    check("a message to a friend who is offline reaches them when they come online", waited is not None, alan_chat.messages)
    history = []
    async for page in alan_chat["xep_0313"].retrieve(with_jid=slixmpp.JID(f"{ada}@{DOMAIN}"), iterator=True, rsm={"max": 50}):
        history.extend(result["mam_result"]["forwarded"]["stanza"]["body"] for result in page["mam"]["results"])
    check("the conversation is in the archive (XEP-0313)", "Alan, are you there?" in history, history)
    alan_chat.disconnect()


def main():
    platform = DemoPlatform("roster")
    engine = platform.engine
    with platform.running():
        tokens = {email: log_in(platform.base, platform.client_id, email, PASSWORD, "public_profile,user_friends,xmpp_login")["access_token"]
                  for email in ("ada@example.com", "grace@example.com", "zhangwei@example.com", "emile@example.com",
                                "alan@example.com")}
        chat = platform.chat()
        print(f"==> {engine}: rosters are friend lists (slixmpp on Prosody, people on the web pages)", flush=True)
        latencies = []
        asyncio.run(scenario(chat.port, chat.certificate, platform.base, platform.people, tokens, latencies))
        print(f"    web accept to roster 'both' on both clients: median {statistics.median(latencies) * 1000:.0f} ms, "
              f"max {max(latencies) * 1000:.0f} ms over {len(latencies)}", flush=True)
    print(f"chat roster ({engine}): {len(check.results) - len(check.failed)} passed, {len(check.failed)} failed")
    sys.exit(1 if check.failed else 0)


if __name__ == "__main__":
    main()
