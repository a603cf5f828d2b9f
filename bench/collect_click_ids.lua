-- Desktop visits of a link with conversion tracking; the click id of every redirect
-- (`bq_id=biq_clk_...` in its Location) is appended to CLICKS_FILE.
local file = os.getenv("CLICKS_FILE")
local out
init = function(args)
  out = io.open(file, "a")
  wrk.headers["Host"] = os.getenv("BENCH_HOST")
  wrk.headers["User-Agent"] = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36"
end
response = function(status, headers, body)
  local loc = headers["Location"]
  if loc then
    local id = string.match(loc, "bq_id=(biq_clk_[%w]+)")
    if id then out:write(id, "\n") end
  end
end
done = function(summary, latency, requests) if out then out:close() end end
