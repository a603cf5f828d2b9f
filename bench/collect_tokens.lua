-- Android visits; every Play redirect's handoff token is appended to TOKENS_FILE.
local file = os.getenv("TOKENS_FILE")
local ua = "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36"
local out
init = function(args)
  out = io.open(file, "a")
  wrk.headers["Host"] = os.getenv("BENCH_HOST")
  wrk.headers["User-Agent"] = ua
end
response = function(status, headers, body)
  local loc = headers["Location"]
  if loc then
    local token = string.match(loc, "biqli_token%%3D(bqmh_[%w_%-]+)")
    if token then out:write(token, "\n") end
  end
end
done = function(summary, latency, requests) if out then out:close() end end
