-- Sends `depth` requests in one write (HTTP pipelining); wrk counts each response.
local depth = tonumber(os.getenv("PIPELINE_DEPTH") or "16")
local path = os.getenv("BENCH_PATH") or "/"
local host = os.getenv("BENCH_HOST") or "localhost"
local req
init = function(args)
  local r = {}
  for i = 1, depth do
    r[i] = wrk.format("GET", path, { Host = host })
  end
  req = table.concat(r)
end
request = function()
  return req
end
