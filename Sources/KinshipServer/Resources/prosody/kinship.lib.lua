-- Calling Kinship from the Kinship Prosody modules (`module:require "kinship"`): the options they
-- share and the authenticated POSTs to Kinship's /chat routes.
--
--   kinship_url = "http://127.0.0.1:8080"
--   kinship_secret = "…"            -- from `kinship chat config`; never an app's secret
--   kinship_timeout = 10            -- seconds a call may take before it counts as unanswered

local async = require "util.async";
local http = require "net.http";
local json = require "util.json";
local promise = require "util.promise";
local timer = require "util.timer";

local kinship = {
	url = module:get_option_string("kinship_url", "http://127.0.0.1:8080"):gsub("/$", "");
	secret = module:get_option_string("kinship_secret");
	timeout = module:get_option_number("kinship_timeout", 10);
};

if not kinship.secret then
	module:log("error", "kinship_secret is not set: run `kinship chat config` and use the configuration it writes");
end

-- POSTs a form to Kinship with the shared secret; a promise of the response, or, given a
-- callback, net.http's callback(body, code).
function kinship.post(path, fields, callback)
	return http.request(kinship.url .. path, {
		method = "POST";
		body = http.formencode(fields);
		headers = {
			["Content-Type"] = "application/x-www-form-urlencoded";
			["Authorization"] = "Bearer " .. (kinship.secret or "");
		};
	}, callback);
end

-- Asks Kinship and waits (inside an async runner, without blocking the server) for its JSON
-- answer; nil, the reason in words and the HTTP status (0: no answer) when it refuses or cannot
-- be reached in time.
function kinship.ask(path, fields)
	if not kinship.secret then
		return nil, "Kinship Chat is not configured (kinship_secret).", 0;
	end
	local deadline = promise.new(function (_, reject)
		timer.add_task(kinship.timeout, function () reject("no answer within " .. kinship.timeout .. " s"); end);
	end);
	local response, err = async.wait_for(promise.race({ kinship.post(path, fields), deadline }));
	if not response then
		return nil, "Kinship cannot be reached (" .. tostring(err) .. ")", 0;
	end
	local answer = json.decode(response.body or "");
	if type(answer) ~= "table" then answer = {}; end
	if response.code ~= 200 then
		return nil, answer.reason or ("Kinship answered HTTP " .. tostring(response.code)), response.code, answer;
	end
	return answer;
end

return kinship;
