-- Kinship Chat login for Prosody 0.12: the password of a chat login is a Kinship access token.
--
-- Logins use SASL PLAIN (the token as the password, over TLS only) or OAUTHBEARER (RFC 7628).
-- Each login asks Kinship (POST {kinship_url}/chat/auth, with the secret the two share as a
-- bearer token) whether the token may log in as the person the address names: valid now, that
-- person's, granted xmpp_login. The call waits without blocking the server (util.async inside the
-- session's runner), so other sessions go on while Kinship answers. Accounts, passwords and
-- registration belong to Kinship: this provider creates, changes and lists nothing.
--
-- Every second the module asks Kinship (POST {kinship_url}/chat/logins) which of its live
-- sessions' logins no longer stand — xmpp_login taken back, the app removed, the password changed,
-- the account suspended or deleted — and closes those sessions with not-authorized. Sessions are
-- named to Kinship by the SHA-256 of their token, never by the token.
--
-- Configuration (written by `kinship chat config`; the kinship_* options of kinship.lib.lua too):
--   authentication = "kinship"
--   kinship_recheck_interval = 1    -- seconds between two questions about the live sessions

local json = require "util.json";
local new_sasl = require "util.sasl".new;
local nodeprep = require "util.encodings".stringprep.nodeprep;
local registerMechanism = require "util.sasl".registerMechanism;
local sha256 = require "util.hashes".sha256;

local kinship = module:require "kinship";
local host = module.host;
local log = module._log;
local recheck_interval = module:get_option_number("kinship_recheck_interval", 1);
-- Kinship answers about at most this many sessions per question.
local batch_limit = 500;

local provider = {};

-- Asks Kinship whether `token` may log in as `username`: true, or nil, the reason and whether
-- Kinship could not be asked at all.
function provider.test_password(username, token)
	local answer, reason, code = kinship.ask("/chat/auth", { user = username, token = token });
	if answer and answer.allowed == true then
		return true;
	end
	if code == 0 then
		log("warn", "Kinship did not answer a chat login check for %s: %s", username, reason);
		return nil, "Kinship cannot be reached to check the login; try again in a moment.", true;
	elseif code == 401 then
		log("error", "Kinship refused this server's kinship_secret: run `kinship chat config` again");
	else
		log("info", "Kinship refused a chat login for %s: %s", username, tostring(reason));
	end
	return nil, reason or "Kinship refused the login.";
end

function provider.get_password()
	return nil, "Kinship Chat logs in with access tokens, not stored passwords.";
end

function provider.set_password()
	return nil, "Passwords are changed on Kinship.";
end

-- Every Kinship user id is a chat address; whether the person exists is Kinship's to say at login.
function provider.user_exists()
	return true;
end

function provider.users()
	return function() return nil; end;
end

function provider.create_user()
	return nil, "Accounts are made on Kinship.";
end

function provider.delete_user()
	return nil, "Accounts are deleted on Kinship.";
end

-- SASL OAUTHBEARER (RFC 7628): "n,a=USERID,\1auth=Bearer TOKEN\1\1". The authorization identity
-- names the person (USERID or USERID@domain); a refused token gets the RFC's JSON error as a
-- challenge, and the client's \1 in reply ends the exchange with not-authorized.
local function oauthbearer(self, message)
	if self.oauthbearer_refused then
		return "failure", "not-authorized", self.oauthbearer_refused;
	end
	local gs2, rest = (message or ""):match("^([^\1]*)\1(.*)$");
	local authzid = gs2 and gs2:match("^[ny][^,]*,a=([^,]+),$");
	local token = rest and rest:match("auth=[Bb]earer ([^\1]+)\1");
	if not token then
		return "failure", "malformed-request", "Send n,a=USERID, then auth=Bearer TOKEN (RFC 7628).";
	end
	local username = authzid and (authzid:match("^([^@]+)@") or authzid);
	username = username and nodeprep(username);
	if not username or username == "" then
		return "failure", "malformed-request", "Name your chat address in the authorization identity (a=USERID).";
	end
	self.username = username;
	local allowed, reason, unreachable = self.profile.oauthbearer(self, username, token);
	module:log("info", "OAUTHBEARER login for %s: %s", username, allowed and "allowed" or "refused");
	if unreachable then
		-- Not the token's fault: the client may try again later (RFC 6120 §6.5.12).
		return "failure", "temporary-auth-failure", reason;
	end
	if not allowed then
		self.oauthbearer_refused = reason or "The token was refused.";
		return "challenge", json.encode({ status = "invalid_token", scope = "xmpp_login" });
	end
	return "success";
end

registerMechanism("OAUTHBEARER", { "oauthbearer" }, oauthbearer);

-- Both mechanisms check the token with Kinship and name the session to Kinship by its hash.
function provider.get_sasl_handler(session)
	local function check(_, username, token)
		local allowed, reason, unreachable = provider.test_password(username, token);
		if allowed and session then
			session.kinship_token_hash = sha256(token, true);
		end
		return allowed, reason, unreachable;
	end
	return new_sasl(host, {
		plain_test = function(sasl, username, token) return check(sasl, username, token), true; end;
		oauthbearer = check;
	});
end

-- The live sessions of this host that logged in with a Kinship token, by token hash.
local function sessions_by_token()
	local found = {};
	for _, session in pairs(prosody.full_sessions) do
		local hash = session.host == host and session.kinship_token_hash;
		if hash then
			found[hash] = found[hash] or {};
			table.insert(found[hash], session);
		end
	end
	return found;
end

-- Closes the sessions whose logins Kinship says ended.
local function close_ended(by_token, body)
	local answer = json.decode(body or "") or {};
	for _, hash in ipairs(answer.ended or {}) do
		for _, session in ipairs(by_token[hash] or {}) do
			module:log("info", "Kinship ended the chat login of %s; closing its session", session.full_jid or session.username);
			session:close({ condition = "not-authorized", text = "Your Kinship login for chat ended (the app lost xmpp_login, or the account changed)." });
		end
	end
end

-- One question at a time; one that got no answer in 30 s no longer holds the next back.
local asking, asked_at, warned_at = false, 0, 0;
module:add_timer(recheck_interval, function ()
	if not kinship.secret or (asking and os.time() - asked_at < 30) then return recheck_interval; end
	local by_token = sessions_by_token();
	local hashes = {};
	for hash in pairs(by_token) do
		table.insert(hashes, hash);
	end
	if #hashes == 0 then return recheck_interval; end
	local pending = 0;
	for first = 1, #hashes, batch_limit do
		local fields = {};
		for index = first, math.min(first + batch_limit - 1, #hashes) do
			table.insert(fields, { name = "token_hash", value = hashes[index] });
		end
		pending = pending + 1;
		asking, asked_at = true, os.time();
		kinship.post("/chat/logins", fields, function (body, code)
			pending = pending - 1;
			if pending == 0 then asking = false; end
			if code == 200 then
				close_ended(by_token, body);
			elseif os.time() - warned_at >= 60 then
				warned_at = os.time();
				log("warn", "Kinship did not answer which chat logins ended (HTTP %s); live sessions go on", tostring(code));
			end
		end);
	end
	return recheck_interval;
end);

module:provides("auth", provider);
