-- POST /api/v1/track/lead or /sale shaped like the official PHP SDK's (header names,
-- member order, explicit nulls, `[]` for empty metadata). Every request is a new event
-- (its own eventId, used as the Idempotency-Key as the SDK does).
--   MODE=lead: a new customer `cus_<id>` tied to a click id of CLICKS_FILE (taken in turn).
--   MODE=sale: no clickId; a customer of CUSTOMERS_FILE (in turn), attributed through
--   the click its lead gave it; 1299 minor units of usd.
-- The request is put together from pieces made once (wrk shares the cores with the edge).
local mode = os.getenv("MODE") or "lead"
local key = os.getenv("SK")
local items = {}
local counter = 0
local head, mid
thread_id = 0
local next_thread = 0

setup = function(thread)
  next_thread = next_thread + 1
  thread:set("thread_id", next_thread)
end

local function body(id, item)
  if mode == "lead" then
    return '{"clickId":"' .. item .. '","eventId":"evt_' .. id .. '","eventName":"Sign up","customerExternalId":"cus_' .. id ..
      '","customerName":null,"customerEmail":null,"customerAvatar":null,"occurredAt":null,"metadata":[]}'
  end
  return '{"clickId":null,"eventId":"evt_' .. id .. '","eventName":null,"customerExternalId":"' .. item ..
    '","customerName":null,"customerEmail":null,"customerAvatar":null,"amount":1299,"currency":"usd",' ..
    '"invoiceId":null,"occurredAt":null,"metadata":[]}'
end

init = function(args)
  local all = {}
  for line in io.lines(os.getenv(mode == "lead" and "CLICKS_FILE" or "CUSTOMERS_FILE")) do all[#all + 1] = line end
  local threads = tonumber(os.getenv("THREADS") or "2")
  for i = thread_id, #all, threads do items[#items + 1] = all[i] end
  head = "POST /api/v1/track/" .. mode .. " HTTP/1.1\r\nHost: " .. os.getenv("BENCH_HOST") ..
    "\r\nAuthorization: Bearer " .. key .. "\r\nContent-Type: application/json\r\nAccept: application/json\r\n" ..
    "X-Biq-Client: biqli-php\r\nX-Biq-Client-Version: 1.0.0\r\nIdempotency-Key: evt_"
  mid = "\r\nX-Biq-Request-Id: req_"
end

request = function()
  counter = counter + 1
  local id = string.format("%08x%08x%016x", thread_id, os.time() % 4294967296, counter)
  local item = items[(counter - 1) % #items + 1]
  local b = body(id, item)
  return head .. id .. mid .. id .. "\r\nContent-Length: " .. #b .. "\r\n\r\n" .. b
end
