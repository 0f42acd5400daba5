-- Kinship Chat rosters for Prosody 0.12: a person's roster is their Kinship friend list.
--
-- Kinship is the one source of truth. A roster is read from Kinship when it is loaded
-- (POST {kinship_url}/chat/roster): friends are items with subscription "both", a request the
-- person sent is an item with ask="subscribe", a request waiting for their answer is a pending
-- incoming subscription. Names come from the profiles. The roster version is a hash of the
-- roster, so a client holding an unchanged friend list gets an empty answer (RFC 6121 §2.6).
--
-- Changes made on Kinship (the web pages, the admin command, another chat server) arrive through
-- a long poll (POST {kinship_url}/chat/roster/changes): the module refetches the rosters of the
-- people named that are online, pushes the items that changed to their clients and sends the
-- presence stanzas RFC 6121 describes (subscribe, subscribed, unsubscribe, unsubscribed, and the
-- presence of a new friend's online resources, or their unavailability once no longer friends).
--
-- Subscription stanzas a client sends, and roster removals, are not applied to Prosody's own
-- storage: they go to Kinship (POST {kinship_url}/chat/subscription) as friend requests,
-- acceptances, declines, withdrawals and unfriendings, and come back as roster changes. Adding or
-- renaming an item changes nothing: the roster is the friend list, and names come from profiles.
--
-- Configuration (written by `kinship chat config`; the kinship_* options of kinship.lib.lua too):
--   modules_enabled = { …, "roster_kinship" }
--   storage = { roster = "memory" }     -- Prosody keeps no roster of its own
--   kinship_roster_poll_wait = 25       -- seconds Kinship may hold a change poll open

local async = require "util.async";
local jid_bare = require "util.jid".bare;
local jid_prep = require "util.jid".prep;
local jid_split = require "util.jid".split;
local json = require "util.json";
local rostermanager = require "core.rostermanager";
local sha256 = require "util.hashes".sha256;
local st = require "util.stanza";

local kinship = module:require "kinship";
local ask = kinship.ask;
local host = module.host;
local bare_sessions = prosody.bare_sessions;
local poll_wait = module:get_option_number("kinship_roster_poll_wait", 25);

-- A roster's version: a hash of everything a client is told, so equal rosters have equal
-- versions in every Prosody process and after restarts.
local function version_of(roster)
	local lines = {};
	for jid, item in pairs(roster) do
		if jid then
			lines[#lines + 1] = table.concat({ jid, item.subscription or "", item.ask or "", item.name or "" }, "\0");
		end
	end
	for jid in pairs(roster[false].pending) do
		lines[#lines + 1] = "pending\0" .. jid;
	end
	table.sort(lines);
	return tonumber(sha256(table.concat(lines, "\n"), true):sub(1, 10), 16);
end

-- A subscription request from `jid`, with their name (XEP-0172) so the client can show who asks.
local function subscribe_from(jid, name)
	local stanza = st.presence({ type = "subscribe", from = jid });
	if name then stanza:text_tag("nick", name, { xmlns = "http://jabber.org/protocol/nick" }); end
	return stanza;
end

-- Kinship's roster answer as Prosody roster items and pending incoming subscriptions (kept as
-- the request stanza, which Prosody resends at every login).
local function items_from(answer)
	local items, pending = {}, {};
	for _, entry in ipairs(answer.items or {}) do
		local jid = entry.user .. "@" .. host;
		if entry.standing == "friend" then
			items[jid] = { subscription = "both", name = entry.name, groups = {} };
		elseif entry.standing == "asked" then
			items[jid] = { subscription = "none", ask = "subscribe", name = entry.name, groups = {} };
		elseif entry.standing == "asking" then
			pending[jid] = st.preserialize(subscribe_from(jid, entry.name));
		end
	end
	return items, pending;
end

-- Sends `stanza` to a person's resources: those that asked for the roster, or those available.
local function deliver(username, stanza, to_interested)
	local user = bare_sessions[username .. "@" .. host];
	for _, session in pairs(user and user.sessions or {}) do
		if (to_interested and session.interested) or (not to_interested and session.presence) then
			local copy = st.clone(stanza);
			copy.attr.to = session.full_jid;
			session.send(copy);
		end
	end
end

-- Sends the presence of `contact`'s available resources to `username`'s available resources
-- (or, with `unavailable`, that each of them is gone).
local function show_presence(contact, username, unavailable)
	local other = bare_sessions[contact];
	for _, session in pairs(other and other.sessions or {}) do
		if session.presence then
			local presence = unavailable and st.presence({ type = "unavailable" }) or st.clone(session.presence);
			presence.attr.from = session.full_jid;
			deliver(username, presence, false);
		end
	end
end

-- Makes a loaded roster equal to Kinship's answer, pushing each changed item to the person's
-- clients and sending the presence stanzas the change means.
local function apply(username, roster, answer)
	local items, pending = items_from(answer);
	local metadata = roster[false];
	local changed = {};
	for jid in pairs(roster) do
		if jid and not items[jid] then changed[#changed + 1] = jid; end
	end
	for jid, item in pairs(items) do
		local old = roster[jid];
		if not old or old.subscription ~= item.subscription or old.ask ~= item.ask or old.name ~= item.name then
			changed[#changed + 1] = jid;
		end
	end
	local asking, withdrawn = {}, {};
	for jid in pairs(pending) do
		if not metadata.pending[jid] then asking[#asking + 1] = jid; end
	end
	for jid in pairs(metadata.pending) do
		if not pending[jid] and not items[jid] then withdrawn[#withdrawn + 1] = jid; end
	end
	metadata.pending = pending;
	for _, jid in ipairs(changed) do
		local old, new = roster[jid], items[jid];
		roster[jid] = new;
		metadata.version = version_of(roster);
		rostermanager.roster_push(username, host, jid);
		local was_friend = old and old.subscription == "both";
		local is_friend = new and new.subscription == "both";
		if is_friend and not was_friend then
			deliver(username, st.presence({ type = "subscribed", from = jid }), true);
			show_presence(jid, username, false);
		elseif was_friend and not is_friend then
			deliver(username, st.presence({ type = "unsubscribed", from = jid }), true);
			deliver(username, st.presence({ type = "unsubscribe", from = jid }), true);
			show_presence(jid, username, true);
		elseif old and old.ask and not new then
			deliver(username, st.presence({ type = "unsubscribed", from = jid }), true);
		end
	end
	metadata.version = version_of(roster);
	for _, jid in ipairs(asking) do
		deliver(username, st.deserialize(pending[jid]), false);
	end
	for _, jid in ipairs(withdrawn) do
		deliver(username, st.presence({ type = "unsubscribe", from = jid }), true);
	end
end

-- Rosters read at login, before the resource is bound: Prosody binds without expecting a wait,
-- so the roster is ready when it asks. Kept a minute for the person's other logins; a change
-- after the read (`generation`) drops it.
local prefetched, generation = {}, {};
local prefetch_kept = 60;

module:hook("authentication-success", function (event)
	local username = event.session.username;
	local started = generation[username];
	local answer = async.ready() and ask("/chat/roster", { user = username });
	if answer and generation[username] == started then
		prefetched[username] = answer;
		module:add_timer(prefetch_kept, function ()
			if prefetched[username] == answer then prefetched[username] = nil; end
		end);
	end
end);

-- Loading a roster: Prosody's own storage (memory) holds nothing worth keeping; Kinship's
-- friend list replaces it.
module:hook("roster-load", function (event)
	local username, roster = event.username, event.roster;
	for jid in pairs(roster) do
		if jid then roster[jid] = nil; end
	end
	roster[false].pending = {};
	local answer, err = prefetched[username], nil;
	if answer then
		err = nil;
	elseif async.ready() then
		answer, err = ask("/chat/roster", { user = username });
	else
		err = "the roster was asked for outside a session";
	end
	if not answer then
		module:log("warn", "Could not read %s's friend list from Kinship: %s", username, err);
		roster[false].broken = err;
		roster[false].version = 0;
		-- Not kept for the next load: the next one asks Kinship again.
		module:add_timer(0, function ()
			local cache = prosody.hosts[host].roster_cache;
			if cache and cache:get(username .. "@" .. host) == roster then cache:set(username .. "@" .. host, nil); end
		end);
		return;
	end
	roster[false].broken = nil;
	local items, pending = items_from(answer);
	for jid, item in pairs(items) do roster[jid] = item; end
	roster[false].pending = pending;
	roster[false].version = version_of(roster);
end);

-- A probe for a friend who is offline is answered from the prober's roster (friendship is
-- mutual), without loading the friend's: logging in with a thousand friends asks Kinship nothing more.
module:hook("presence/bare", function (event)
	local origin, stanza = event.origin, event.stanza;
	if stanza.attr.type ~= "probe" or bare_sessions[stanza.attr.to] then return; end
	local prober = jid_bare(stanza.attr.from);
	local user = bare_sessions[prober];
	local item = user and user.roster and user.roster[stanza.attr.to];
	if item and item.subscription == "both" then
		module:send(st.presence({ from = stanza.attr.to, to = stanza.attr.from, type = "unavailable" }), origin);
		return true;
	end
end, 10);

-- Refetching a person's roster after Kinship said it changed: one at a time, in a runner that
-- can wait for Kinship.
local refresher = async.runner(function (username)
	local bare = username .. "@" .. host;
	local user = bare_sessions[bare];
	if not (user and user.roster) then
		local cache = prosody.hosts[host].roster_cache;
		if cache then cache:set(bare, nil); end
		return;
	end
	local answer, err = ask("/chat/roster", { user = username });
	user = bare_sessions[bare];
	if not answer then
		module:log("warn", "Could not refresh %s's roster from Kinship: %s", username, err);
	elseif user and user.roster then
		user.roster[false].broken = nil;
		apply(username, user.roster, answer);
	end
end);

local function refresh(username)
	generation[username] = (generation[username] or 0) + 1;
	prefetched[username] = nil;
	refresher:run(username);
end

local function refresh_everyone()
	local cache = prosody.hosts[host].roster_cache;
	if cache then cache:clear(); end
	prefetched = {};
	for _, user in pairs(prosody.hosts[host].sessions) do
		refresh(user.username);
	end
end

-- The Kinship person a stanza addresses, or nil and why not.
local function kinship_person(address)
	local jid = address and jid_prep(jid_bare(address));
	local node, to_host = jid_split(jid or "");
	if not node or to_host ~= host then
		return nil, "Only Kinship people (USERID@" .. host .. ") can be friends in chat.";
	end
	return node;
end

-- Sends a subscription a client sent to Kinship; the rosters follow from Kinship's answer.
local function tell_kinship(origin, stanza, kind, contact)
	if not async.ready() then
		origin.send(st.error_reply(stanza, "wait", "internal-server-error", "Try again."));
		return;
	end
	local answer, err, code = ask("/chat/subscription", { user = origin.username, contact = contact, type = kind });
	if not answer then
		module:log("info", "Kinship refused %s's %s for %s: %s", origin.username, kind, contact, err);
		if code == 404 then
			origin.send(st.error_reply(stanza, "cancel", "item-not-found", err));
		elseif code == 400 then
			origin.send(st.error_reply(stanza, "modify", "bad-request", err));
		else
			origin.send(st.error_reply(stanza, "wait", "remote-server-timeout", err));
		end
		return;
	end
	refresh(origin.username);
	refresh(contact);
	return true;
end

local subscription_types = { subscribe = true, subscribed = true, unsubscribe = true, unsubscribed = true };

local function outbound_subscription(event)
	local origin, stanza = event.origin, event.stanza;
	local kind = stanza.attr.type;
	if not subscription_types[kind] or not origin.username then return; end
	local contact, why = kinship_person(stanza.attr.to);
	if not contact then
		origin.send(st.error_reply(stanza, "cancel", "item-not-found", why));
		return true;
	end
	local item = origin.roster and origin.roster[contact .. "@" .. host];
	-- Prosody resends a waiting request at every login; Kinship has it already.
	if kind == "subscribe" and item and (item.ask or item.subscription == "both") then return true; end
	tell_kinship(origin, stanza, kind, contact);
	return true;
end

module:hook("pre-presence/bare", outbound_subscription, 10);
module:hook("pre-presence/full", outbound_subscription, 10);

-- Roster sets: removing an item ends the friendship (or drops the request); adding or renaming
-- one leaves the friend list as it is.
module:hook("iq/self/jabber:iq:roster:query", function (event)
	local session, stanza = event.origin, event.stanza;
	if stanza.attr.type ~= "set" then return; end
	local item = stanza.tags[1]:get_child("item");
	local jid = item and item.attr.jid and jid_prep(item.attr.jid);
	if not jid then return; end
	if item.attr.subscription == "remove" then
		local roster = session.roster or {};
		local contact = kinship_person(jid);
		if not contact or not (roster[jid] or (roster[false] and roster[false].pending[jid])) then
			session.send(st.error_reply(stanza, "modify", "item-not-found"));
		elseif tell_kinship(session, stanza, "remove", contact) then
			session.send(st.reply(stanza));
		end
		return true;
	end
	session.send(st.reply(stanza));
	if session.roster and session.roster[jid] then
		rostermanager.roster_push(session.username, host, jid);
	end
	return true;
end, 10);

-- Following Kinship's change log with a long poll. A poll that got no answer long after it should
-- have is given up (net.http has no read timeout), and a failed one is retried after a pause.
local cursor, poll_generation, warned_at = -1, 0, 0;

local function poll()
	poll_generation = poll_generation + 1;
	local generation = poll_generation;
	local function again(delay)
		if generation == poll_generation then
			module:add_timer(delay, poll);
		end
	end
	module:add_timer(poll_wait + kinship.timeout + 5, function ()
		if generation == poll_generation then
			module:log("warn", "Kinship held a roster change poll far too long; asking again");
			poll();
		end
	end);
	kinship.post("/chat/roster/changes", { since = tostring(cursor), wait = tostring(poll_wait) }, function (body, code)
		if generation ~= poll_generation then return; end
		local answer = code == 200 and json.decode(body or "");
		if type(answer) ~= "table" then
			if os.time() - warned_at >= 60 then
				warned_at = os.time();
				module:log("warn", "Kinship did not answer which rosters changed (HTTP %s); rosters stay as they are until it does", tostring(code));
			end
			-- Whatever changed meanwhile is in the log after our cursor, unless Kinship lost it.
			return again(1);
		end
		if answer.start_over then
			module:log("info", "Kinship's roster change log moved on past this server; refreshing every online roster");
			refresh_everyone();
		end
		for _, username in ipairs(answer.users or {}) do
			refresh(username);
		end
		cursor = tonumber(answer.cursor) or cursor;
		again(0);
	end);
end

if kinship.secret then
	module:add_timer(0, poll);
end

function module.unload()
	poll_generation = poll_generation + 1;
end
