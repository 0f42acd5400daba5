-- Kinship Chat login for Prosody 0.12: the password of a chat login is a Kinship access token.
--
-- Each login asks Kinship (POST {kinship_url}/chat/auth, with the secret the two share as a
-- bearer token) whether the token may log in as the person the address names: valid now, that
-- person's, granted xmpp_login. The call waits without blocking the server (util.async inside the
-- session's runner), so other sessions go on while Kinship answers. Accounts, passwords and
-- registration belong to Kinship: this provider creates, changes and lists nothing.
--
-- Configuration (written by `kinship chat config`):
--   authentication = "kinship"
--   kinship_url = "http://127.0.0.1:8080"
--   kinship_secret = "…"            -- from `kinship chat config`; never an app's secret
--   kinship_timeout = 10            -- seconds a check may take before the login is refused

local async = require "util.async";
local http = require "net.http";
local json = require "util.json";
local new_sasl = require "util.sasl".new;
local promise = require "util.promise";
local timer = require "util.timer";

local host = module.host;
local log = module._log;
local kinship_url = module:get_option_string("kinship_url", "http://127.0.0.1:8080"):gsub("/$", "");
local kinship_secret = module:get_option_string("kinship_secret");
local timeout = module:get_option_number("kinship_timeout", 10);

if not kinship_secret then
	module:log("error", "kinship_secret is not set: run `kinship chat config` and use the configuration it writes");
end

local provider = {};

-- Asks Kinship whether `token` may log in as `username`; true, or nil and the reason.
function provider.test_password(username, token)
	if not kinship_secret then
		return nil, "Kinship Chat is not configured (kinship_secret).";
	end
	local request = http.request(kinship_url .. "/chat/auth", {
		method = "POST";
		body = http.formencode({ user = username, token = token });
		headers = {
			["Content-Type"] = "application/x-www-form-urlencoded";
			["Authorization"] = "Bearer " .. kinship_secret;
		};
	});
	local deadline = promise.new(function (_, reject)
		timer.add_task(timeout, function () reject("no answer within " .. timeout .. " s"); end);
	end);
	local response, err = async.wait_for(promise.race({ request, deadline }));
	if not response then
		log("warn", "Kinship did not answer a chat login check for %s: %s", username, tostring(err));
		return nil, "Kinship cannot be reached to check the login.";
	end
	local answer = json.decode(response.body or "") or {};
	if response.code == 200 and answer.allowed == true then
		return true;
	end
	if response.code == 401 then
		log("error", "Kinship refused this server's kinship_secret: run `kinship chat config` again");
	else
		log("info", "Kinship refused a chat login for %s: %s", username, tostring(answer.reason));
	end
	return nil, answer.reason or "Kinship refused the login.";
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

function provider.get_sasl_handler()
	return new_sasl(host, {
		plain_test = function(_, username, token)
			return provider.test_password(username, token), true;
		end;
	});
end

module:provides("auth", provider);
