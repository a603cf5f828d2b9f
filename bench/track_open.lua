-- POST /api/v1/track/open shaped like the Android SDK's. MODE=handoff uses each token
-- of TOKENS_FILE once (a fresh exact_install_referrer match with a receipt each time);
-- MODE=none sends no token and no deep link (a `none` answer). Every request has its
-- own eventId, idempotency key and app instance.
local mode = os.getenv("MODE") or "none"
local key = os.getenv("PK")
local app = os.getenv("APP_ID")
local tokens = {}
local counter = 0
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
  wrk.method = "POST"
  wrk.headers["Host"] = os.getenv("BENCH_HOST")
  wrk.headers["Authorization"] = "Bearer " .. key
  wrk.headers["Content-Type"] = "application/json"
  wrk.headers["Accept"] = "application/json"
  wrk.headers["X-Biq-SDK"] = "android"
  wrk.headers["X-Biq-SDK-Version"] = "1.0.0"
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
  local body = '{"eventId":"open_' .. id .. '","appId":"' .. app .. '","appInstanceId":"install_' .. id ..
    '","platform":"android","firstOpen":true,"probabilisticAllowed":false,"handoffToken":' .. token ..
    ',"deepLink":null,"domain":null,"appVersion":"2.4.0","osVersion":"15","sdkVersion":"1.0.0","occurredAt":null}'
  wrk.headers["Idempotency-Key"] = "open_" .. id
  wrk.headers["X-Biq-Request-Id"] = "req_" .. id
  return wrk.format(nil, "/api/v1/track/open", nil, body)
end
