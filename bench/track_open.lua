-- POST /api/v1/track/open shaped like the Android SDK's. MODE=handoff uses each token
-- of TOKENS_FILE once (a fresh exact_install_referrer match with a receipt each time);
-- MODE=none sends no token and no deep link (a `none` answer). Every request has its
-- own eventId, idempotency key and app instance.
--
-- The request text is put together from constant pieces made once, with one
-- string.format per request: wrk shares the cores with the edge, so its own cost per
-- request is kept small (wrk.format rebuilds every header line each time).
local mode = os.getenv("MODE") or "none"
local key = os.getenv("PK")
local app = os.getenv("APP_ID")
local tokens = {}
local counter = 0
local head, mid, tail
thread_id = 0
local next_thread = 0

setup = function(thread)
  next_thread = next_thread + 1
  thread:set("thread_id", next_thread)
end

init = function(args)
  if mode == "handoff" then
    local all = {}
    for line in io.lines(os.getenv("TOKENS_FILE")) do all[#all + 1] = line end
    local threads = tonumber(os.getenv("THREADS") or "2")
    for i = thread_id, #all, threads do tokens[#tokens + 1] = all[i] end
  end
  -- Every id is 32 hex digits and every token 48 characters: the length is fixed.
  local sample_id = string.rep("0", 32)
  local sample_token = mode == "handoff" and ('"' .. string.rep("x", 48) .. '"') or "null"
  local body = '{"eventId":"open_' .. sample_id .. '","appId":"' .. app .. '","appInstanceId":"install_' .. sample_id ..
    '","platform":"android","firstOpen":true,"probabilisticAllowed":false,"handoffToken":' .. sample_token ..
    ',"deepLink":null,"domain":null,"appVersion":"2.4.0","osVersion":"15","sdkVersion":"1.0.0","occurredAt":null}'
  head = "POST /api/v1/track/open HTTP/1.1\r\nHost: " .. os.getenv("BENCH_HOST") .. "\r\nAuthorization: Bearer " .. key ..
    "\r\nContent-Type: application/json\r\nAccept: application/json\r\nX-Biq-SDK: android\r\nX-Biq-SDK-Version: 1.0.0\r\n" ..
    "Content-Length: " .. #body .. "\r\nIdempotency-Key: open_"
  mid = {"\r\nX-Biq-Request-Id: req_", '\r\n\r\n{"eventId":"open_', '","appId":"' .. app .. '","appInstanceId":"install_',
    '","platform":"android","firstOpen":true,"probabilisticAllowed":false,"handoffToken":'}
  tail = ',"deepLink":null,"domain":null,"appVersion":"2.4.0","osVersion":"15","sdkVersion":"1.0.0","occurredAt":null}'
end

request = function()
  counter = counter + 1
  local id = string.format("%08x%08x%016x", thread_id, os.time() % 4294967296, counter)
  local token = "null"
  if mode == "handoff" then
    local t = tokens[counter]
    if t == nil then t = tokens[#tokens] end
    token = '"' .. t .. '"'
  end
  return head .. id .. mid[1] .. id .. mid[2] .. id .. mid[3] .. id .. mid[4] .. token .. tail
end
