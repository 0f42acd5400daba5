-- Kinship Chat vCards for Prosody 0.12: a person's vCard (vcard-temp, XEP-0054) is their Kinship
-- profile — full name, given and family names, and the profile picture — read from Kinship
-- (POST {kinship_url}/chat/vcard) when a client asks. Profiles are edited on Kinship, so setting
-- one's vCard is refused with a pointer there.
--
-- The picture's SHA-1 goes into every presence a person sends (XEP-0153,
-- <x xmlns='vcard-temp:x:update'><photo>…</photo></x>), read once at login, so clients fetch a
-- friend's vCard only when the picture changed.
--
-- Configuration: modules_enabled = { …, "vcard_kinship" } (and not vcard_legacy or vcard).

local jid_bare = require "util.jid".bare;
local jid_split = require "util.jid".split;
local st = require "util.stanza";

local kinship = module:require "kinship";
local host = module.host;

-- The vcard-temp element for Kinship's answer.
local function vcard_of(card)
	local vcard = st.stanza("vCard", { xmlns = "vcard-temp" }):text_tag("FN", card.name);
	vcard:tag("N"):text_tag("FAMILY", card.last_name or ""):text_tag("GIVEN", card.first_name or ""):up();
	if card.photo then
		vcard:tag("PHOTO"):text_tag("TYPE", card.photo_type):text_tag("BINVAL", card.photo):up();
	end
	return vcard;
end

local function answer_vcard(event)
	local origin, stanza = event.origin, event.stanza;
	local node, to_host = jid_split(stanza.attr.to and jid_bare(stanza.attr.to) or origin.username .. "@" .. origin.host);
	if to_host ~= host or not node then return; end
	local card, reason, code = kinship.ask("/chat/vcard", { user = node });
	if card then
		origin.send(st.reply(stanza):add_child(vcard_of(card)));
	elseif code == 404 then
		origin.send(st.error_reply(stanza, "cancel", "item-not-found", reason));
	else
		module:log("warn", "Could not read %s's vCard from Kinship: %s", node, reason);
		origin.send(st.error_reply(stanza, "wait", "remote-server-timeout", reason));
	end
	return true;
end

module:hook("iq-get/bare/vcard-temp:vCard", answer_vcard, 10);
module:hook("iq-get/self/vcard-temp:vCard", answer_vcard, 10);

module:hook("iq-set/self/vcard-temp:vCard", function (event)
	event.origin.send(st.error_reply(event.stanza, "cancel", "not-allowed",
		"Your chat profile is your Kinship profile: change your name and picture on Kinship's account page."));
	return true;
end, 10);

-- The picture's hash, read at login.
module:hook("authentication-success", function (event)
	local session = event.session;
	local card = kinship.ask("/chat/vcard", { user = session.username });
	session.kinship_photo_hash = card and card.photo_hash or nil;
end);

local function add_photo_hash(event)
	local origin, stanza = event.origin, event.stanza;
	if not origin.username or stanza.attr.type then return; end
	local update = stanza:get_child("x", "vcard-temp:x:update");
	if update then stanza:remove_children("x", "vcard-temp:x:update"); end
	stanza:tag("x", { xmlns = "vcard-temp:x:update" }):text_tag("photo", origin.kinship_photo_hash or ""):up();
end

module:hook("pre-presence/full", add_photo_hash, 1);
module:hook("pre-presence/bare", add_photo_hash, 1);
module:hook("pre-presence/host", add_photo_hash, 1);
