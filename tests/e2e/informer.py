#!/usr/bin/env python3
"""informer.py URL PATH OUT [CURL_ARGS...]: a client-go style informer over plain HTTP(S).

Lists PATH (resourceVersion=0 first), then watches from the list's resourceVersion; on an ERROR
event (410 Expired) or a closed stream it relists with the last resourceVersion it saw — "not older
than", as client-go's reflector does after an expired watch — and watches again. After every list and
every event it writes OUT atomically: one line per event log entry ("LIST rv n", "ERROR code
reason", "ADDED name rv", ...) followed by "STATE name,name,..." (the cache's sorted names).
Runs until killed. Uses curl for TLS options (a .curlrc via CURL_HOME).
"""
import json
import os
import subprocess
import sys

url, path, out = sys.argv[1], sys.argv[2], sys.argv[3]
curl_args = sys.argv[4:]
log = []
cache = {}


def write():
    tmp = out + ".tmp"
    with open(tmp, "w") as f:
        f.write("\n".join(log + ["STATE " + ",".join(sorted(cache))]) + "\n")
    os.replace(tmp, out)


def curl(query, stream=False):
    cmd = ["curl", "-sN", *curl_args, url + path + query]
    if not stream:
        return json.loads(subprocess.run(cmd, capture_output=True, check=True).stdout)
    return subprocess.Popen(cmd, stdout=subprocess.PIPE)


last_rv = "0"
while True:
    listed = curl("?resourceVersion=" + last_rv)
    rv = last_rv = listed["metadata"]["resourceVersion"]
    cache = {i["metadata"]["name"]: i["metadata"]["resourceVersion"] for i in listed["items"]}
    log.append("LIST %s %d" % (rv, len(cache)))
    write()
    proc = curl("?watch=1&allowWatchBookmarks=true&resourceVersion=" + rv, stream=True)
    for line in proc.stdout:
        event = json.loads(line)
        obj = event["object"]
        if event["type"] == "ERROR":
            log.append("ERROR %s %s" % (obj.get("code"), obj.get("reason")))
            write()
            break
        last_rv = obj["metadata"]["resourceVersion"]
        if event["type"] == "BOOKMARK":
            continue
        name, rv = obj["metadata"]["name"], obj["metadata"]["resourceVersion"]
        if event["type"] == "DELETED":
            cache.pop(name, None)
        else:
            cache[name] = rv
        log.append("%s %s %s" % (event["type"], name, rv))
        write()
    proc.kill()
    proc.wait()
