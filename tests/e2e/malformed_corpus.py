#!/usr/bin/env python3
"""malformed_corpus.py BIN — a generated corpus of malformed requests sent to the real binary.

Every request (bad paths, names, queries and selectors; truncated, deep, huge, mistyped, null
and duplicate-key bodies in JSON, YAML and protobuf; bad patches; bad headers; missing, lying or
unusable Content-Length; chunked bodies, broken and oversized) must get a well-formed HTTP answer
with a code below 500 within a time bound. The server must stay up, and its peak RSS (VmHWM) must
stay under a bound. The corpus is generated from a fixed seed, so a failure names a request that
reproduces. Standard library only; exits non-zero with the failing requests listed.
"""

import concurrent.futures
import json
import os
import random
import re
import socket
import subprocess
import sys
import threading
import time

SEED = 7
ANSWER_BOUND_S = 10.0          # every answer's head must arrive within this
PEAK_RSS_BOUND_KIB = 256 * 1024
HEAD_BOUND = 64 * 1024         # bytes of status line and headers in an answer
WORKERS = 6
LIMIT = 3 * 1024 * 1024        # the server's request body limit

# --------------------------------------------------------------------------------------------
# Minimal protobuf writer (Kubernetes' envelope: "k8s\0" + runtime.Unknown).


def varint(n):
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def field(number, payload):
    if isinstance(payload, int):
        return varint(number << 3) + varint(payload)
    if isinstance(payload, str):
        payload = payload.encode()
    return varint(number << 3 | 2) + varint(len(payload)) + payload


def envelope(api_version, kind, raw):
    type_meta = field(1, api_version) + field(2, kind)
    return b"k8s\x00" + field(1, type_meta) + field(2, raw)


def pb_configmap(name, data):
    meta = field(1, name)
    entries = b"".join(field(2, field(1, k) + field(2, v)) for k, v in data.items())
    return envelope("v1", "ConfigMap", field(1, meta) + entries)


# --------------------------------------------------------------------------------------------
# Raw HTTP client.


class Answer:
    def __init__(self, code=None, headers=None, body=b"", error=None, head_bytes=0):
        self.code, self.headers, self.body, self.error = code, headers or {}, body, error
        self.head_bytes = head_bytes


def read_answer(sock, deadline, head_only=False):
    return read_answer_after(sock, deadline, b"", head_only)


def read_answer_after(sock, deadline, buf, head_only):
    while b"\r\n\r\n" not in buf:
        if time.monotonic() > deadline:
            return Answer(error="no answer within %.0fs" % ANSWER_BOUND_S)
        sock.settimeout(max(0.05, deadline - time.monotonic()))
        try:
            chunk = sock.recv(65536)
        except socket.timeout:
            continue
        except OSError as e:
            return Answer(error="connection error before an answer: %s" % e)
        if not chunk:
            return Answer(error="connection closed without an answer")
        buf += chunk
    head, rest = buf.split(b"\r\n\r\n", 1)
    if re.match(rb"HTTP/1\.[01] 1\d\d ", head):  # 100 Continue: the answer follows
        return read_answer_after(sock, deadline, rest, head_only)
    lines = head.decode("latin-1").split("\r\n")
    m = re.match(r"HTTP/1\.[01] (\d{3})", lines[0])
    if not m:
        return Answer(error="malformed status line %r" % lines[0][:80])
    headers = {}
    for line in lines[1:]:
        k, _, v = line.partition(":")
        headers[k.strip().lower()] = v.strip()
    answer = Answer(int(m.group(1)), headers, head_bytes=len(head))
    # The body: by Content-Length, or the first chunks of a stream (watches never end).
    if "content-length" in headers and not head_only:
        need = int(headers["content-length"])
        while len(rest) < need and time.monotonic() < deadline:
            sock.settimeout(max(0.05, deadline - time.monotonic()))
            try:
                chunk = sock.recv(65536)
            except (socket.timeout, OSError):
                break
            if not chunk:
                break
            rest += chunk
        if len(rest) < need:
            answer.error = "body cut short (%d of %d bytes)" % (len(rest), need)
        answer.body = rest[:need]
    return answer


def exchange(port, data, half_close=False, background_send=False):
    deadline = time.monotonic() + ANSWER_BOUND_S
    try:
        sock = socket.create_connection(("127.0.0.1", port), timeout=ANSWER_BOUND_S)
    except OSError as e:
        return Answer(error="cannot connect: %s" % e)
    try:
        def send():
            try:
                sock.sendall(data)
                if half_close:
                    sock.shutdown(socket.SHUT_WR)
            except OSError:
                pass  # the server may answer and close before reading all of it
        if background_send:
            t = threading.Thread(target=send, daemon=True)
            t.start()
        else:
            send()
        return read_answer(sock, deadline, head_only=data.startswith(b"HEAD "))
    finally:
        sock.close()


def request(method, path, body=b"", headers=None, version="HTTP/1.1", content_length=True):
    if isinstance(body, str):
        body = body.encode()
    lines = ["%s %s %s" % (method, path, version), "Host: 127.0.0.1"]
    hdrs = dict(headers or {})
    if content_length and body and not any(k.lower() in ("content-length", "transfer-encoding") for k in hdrs):
        hdrs["Content-Length"] = str(len(body))
    lines += ["%s: %s" % kv for kv in hdrs.items()]
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1", "replace") + body


def chunked(body, size=8192):
    out = b""
    for i in range(0, len(body), size):
        piece = body[i:i + size]
        out += b"%x\r\n" % len(piece) + piece + b"\r\n"
    return out + b"0\r\n\r\n"


# --------------------------------------------------------------------------------------------
# The corpus.

NS = "/api/v1/namespaces/default"
COLLECTIONS = [
    NS + "/configmaps", NS + "/secrets", NS + "/pods", NS + "/services", NS + "/events",
    "/apis/apps/v1/namespaces/default/deployments", "/apis/batch/v1/namespaces/default/jobs",
    "/apis/coordination.k8s.io/v1/namespaces/default/leases", "/api/v1/namespaces", "/api/v1/nodes",
    "/apis/rbac.authorization.k8s.io/v1/clusterroles", "/apis/apps/v1/namespaces/default/controllerrevisions",
    "/apis/apiextensions.k8s.io/v1/customresourcedefinitions",
]
REVIEWS = ["/apis/authorization.k8s.io/v1/selfsubjectaccessreviews", "/apis/authentication.k8s.io/v1/tokenreviews",
           "/apis/authentication.k8s.io/v1/selfsubjectreviews"]
JSON = {"Content-Type": "application/json"}
YAML = {"Content-Type": "application/yaml"}
PB = {"Content-Type": "application/vnd.kubernetes.protobuf"}
PATCH_TYPES = ["application/json-patch+json", "application/merge-patch+json",
               "application/strategic-merge-patch+json", "application/apply-patch+yaml"]
WEIRD_NAMES = [".", "..", "%2e%2e", "%2e", "a%25b", "a%2Fb", "A_B", "-a", "a-", "a" * 300, "%00", "%ff%fe",
               "\u00e9t\u00e9", "a b", "a%20b", "*", "~", ":", "a:b", "x" * 70, "..%2f..", "%", "%%", "name.", ".name"]
NAMES = ["c0", "c1", "dep", "p0", "x"] + WEIRD_NAMES


def base_objects():
    return {
        "configmaps": {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "c0"}, "data": {"a": "1"}},
        "secrets": {"apiVersion": "v1", "kind": "Secret", "metadata": {"name": "s0"}, "data": {"a": "MQ=="}},
        "pods": {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p0", "labels": {"app": "x"}},
                 "spec": {"containers": [{"name": "c", "image": "nginx", "ports": [{"containerPort": 80}],
                                          "resources": {"limits": {"cpu": "1"}}}]}},
        "services": {"apiVersion": "v1", "kind": "Service", "metadata": {"name": "svc"},
                     "spec": {"ports": [{"port": 80, "targetPort": "http"}], "selector": {"app": "x"}}},
        "deployments": {"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "dep"},
                        "spec": {"replicas": 1, "selector": {"matchLabels": {"a": "b"}},
                                 "template": {"metadata": {"labels": {"a": "b"}},
                                              "spec": {"containers": [{"name": "c", "image": "i"}]}}}},
        "controllerrevisions": {"apiVersion": "apps/v1", "kind": "ControllerRevision",
                                "metadata": {"name": "rev"}, "revision": 1, "data": {"k": [1, {"a": None}]}},
        "namespaces": {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "corpus-ns"}},
    }


def collection_of(kind):
    for c in COLLECTIONS:
        if c.endswith("/" + kind):
            return c
    return NS + "/configmaps"


def mutate(value, rng, depth=0):
    """A copy of `value` with one random change somewhere."""
    if isinstance(value, dict) and value and rng.random() < 0.7:
        k = rng.choice(list(value))
        out = dict(value)
        out[k] = mutate(value[k], rng, depth + 1)
        return out
    if isinstance(value, list) and value and rng.random() < 0.7:
        i = rng.randrange(len(value))
        out = list(value)
        out[i] = mutate(value[i], rng, depth + 1)
        return out
    return rng.choice([None, "", "x" * rng.choice([1, 1000, 100000]), 0, -1, 2 ** 63, -2 ** 63 - 1, 1.5e308, 1e-320,
                       True, False, [], {}, [None], {"": None}, {"a": {"b": [None, {}]}}, "\u0000",
                       "\ud7ff\ue000", [[[[]]]], {"$patch": "delete"}, {"$retainKeys": 5}])


def deep(depth, opener="[", closer="]", inner="1"):
    return opener * depth + inner + closer * depth


def deep_object(depth):
    return '{"a":' * depth + "1" + "}" * depth


def corpus(rng):
    out = []  # (label, bytes, options)

    def add(label, raw, **opts):
        out.append((label, raw, opts))

    objs = base_objects()
    # Seed objects for reads and patches.
    for kind, obj in objs.items():
        add("seed " + kind, request("POST", collection_of(kind), json.dumps(obj), JSON))

    # Paths: names, namespaces, segments, lengths, for every method.
    for method in ["GET", "DELETE", "PUT", "PATCH", "HEAD", "OPTIONS", "POST"]:
        for name in NAMES:
            for coll in rng.sample(COLLECTIONS, 4):
                path = coll + "/" + name
                body = json.dumps({"metadata": {"name": name}}) if method in ("PUT", "POST") else ""
                hdr = {"Content-Type": rng.choice(PATCH_TYPES)} if method == "PATCH" else JSON
                if method == "PATCH":
                    body = "{}"
                add("path %s %s" % (method, path), request(method, path, body, hdr))
    for ns in WEIRD_NAMES + ["default", "kube-system", "nope"]:
        for suffix in ["/configmaps", "/configmaps/x", "", "/status", "/finalize", "/pods/p0/status", "/pods/p0/log"]:
            add("ns " + ns + suffix, request("GET", "/api/v1/namespaces/" + ns + suffix))
            add("ns post " + ns + suffix, request("POST", "/api/v1/namespaces/" + ns + suffix,
                                                  json.dumps(objs["configmaps"]), JSON))
    segments = ["api", "apis", "v1", "apps", "watch", "namespaces", "default", "pods", "status", "scale", "..",
                ".", "", "%2f", "proxy", "exec", "x" * 5000, "\u2603", "openapi", "v2", "v3", "version",
                "healthz", "readyz", "livez", "metrics", "%zz", "?", "#"]
    for _ in range(300):
        path = "/" + "/".join(rng.choice(segments) for _ in range(rng.randint(1, 8)))
        add("random path " + path[:80], request(rng.choice(["GET", "POST", "DELETE", "PUT", "PATCH"]), path,
                                                "{}", JSON))
    add("path of 20000 bytes", request("GET", "/api/v1/" + "a" * 20000))
    add("path without slash", request("GET", "api/v1/pods"))
    add("absolute URI", request("GET", "http://127.0.0.1/api/v1/pods"))
    add("NUL in path", request("GET", "/api/v1/namespaces/default/configmaps/a\x00b"))

    # Queries and selectors.
    params = {
        "labelSelector": ["a in (", "a=b,", "!!a", "a notin ()", "a=" + "b" * 70, "x" * 100000, "a in (" + ",".join(
            "v%d" % i for i in range(5000)) + ")", "a%3Db%3Dc", "a==b==c", "a!=", ",,,", "a,!b,c in (d)"],
        "fieldSelector": ["metadata.name=..", "metadata.name==", "spec.foo=x", "metadata.name!=a,metadata.name=b",
                          "=", "metadata.namespace=%00", "status.phase=Running", "x" * 10000],
        "resourceVersion": ["abc", "-1", "0", "99999999999999999999", "1e3", ""],
        "resourceVersionMatch": ["Exact", "NotOlderThan", "bogus"],
        "limit": ["-1", "abc", "0", "99999999999999999999", "1.5", "1"],
        "continue": ["garbage", "eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6LTEsInN0YXJ0IjoiLi4vIn0", "%%%", "e30"],
        "timeoutSeconds": ["-1", "abc", "1"],
        "dryRun": ["All", "bogus", "All&dryRun=All"],
        "fieldValidation": ["Strict", "Warn", "Ignore", "bogus"],
        "propagationPolicy": ["Orphan", "bogus"],
        "gracePeriodSeconds": ["-1", "abc", "0"],
        "pretty": ["true", "abc"], "allowWatchBookmarks": ["true", "x"], "sendInitialEvents": ["true", "x"],
        "watch": ["0", "false"], "includeObject": ["None", "Metadata", "bogus"], "fieldManager": ["x" * 200, "\u0000"],
    }
    for _ in range(500):
        q = "&".join("%s=%s" % (k, rng.choice(v)) for k, v in rng.sample(sorted(params.items()), rng.randint(1, 4)))
        coll = rng.choice(COLLECTIONS)
        add("query " + q[:100], request(rng.choice(["GET", "GET", "DELETE"]), coll + "?" + q))
    for q in ["watch=1&timeoutSeconds=1", "watch=1&timeoutSeconds=1&labelSelector=a%20in%20(",
              "watch=1&timeoutSeconds=1&resourceVersion=abc", "watch=1&timeoutSeconds=1&sendInitialEvents=true",
              "watch=1&timeoutSeconds=1&resourceVersion=999999999"]:
        add("watch " + q, request("GET", NS + "/configmaps?" + q))
    add("legacy watch path", request("GET", "/api/v1/watch/namespaces/default/configmaps?timeoutSeconds=1"))

    # Bodies: JSON.
    for kind, obj in objs.items():
        coll = collection_of(kind)
        text = json.dumps(obj)
        for _ in range(60):
            add("mutated %s" % kind, request(rng.choice(["POST", "PUT"]),
                                             coll + ("/" + obj["metadata"]["name"] if rng.random() < 0.3 else ""),
                                             json.dumps(mutate(obj, rng)), JSON))
        for cut in sorted(rng.sample(range(1, len(text)), min(25, len(text) - 1))):
            add("truncated %s at %d" % (kind, cut), request("POST", coll, text[:cut], JSON))
        add("null metadata fields " + kind, request("POST", coll, json.dumps(
            dict(obj, metadata={"name": None, "namespace": None, "generateName": None, "labels": {"a": None}})), JSON))
        add("duplicates " + kind, request("POST", coll + "?fieldValidation=Strict",
                                          text[:-1] + ',"metadata":{"name":"d","name":"d"}}', JSON))
        add("unknown fields " + kind, request("POST", coll + "?fieldValidation=Strict",
                                              json.dumps(dict(obj, bogus={"x": [1, 2, 3]})), JSON))
    many_unknown = dict(objs["configmaps"], **{"f%05d" % i: i for i in range(20000)})
    for validation in ["Warn", "Strict", "Ignore"]:
        add("20000 unknown fields, " + validation, request(
            "POST", NS + "/configmaps?fieldValidation=" + validation,
            json.dumps(dict(many_unknown, metadata={"generateName": "unk-"})), JSON))
    for depth in [100, 5000, 9999, 10000, 10001, 20000, 100000]:
        add("deep arrays %d" % depth, request("POST", NS + "/configmaps", '{"data":' + deep(depth) + "}", JSON))
        add("deep objects %d" % depth, request("POST", NS + "/configmaps", '{"data":' + deep_object(depth) + "}",
                                               JSON))
        add("deep free-form %d" % depth, request(
            "POST", "/apis/apps/v1/namespaces/default/controllerrevisions",
            json.dumps({"metadata": {"generateName": "deep-"}, "revision": 1})[:-1] + ',"data":' + deep(min(
                depth, 9990)) + "}", JSON))
        add("deep patch %d" % depth, request("PATCH", NS + "/configmaps/c0", '{"data":' + deep_object(depth) + "}",
                                             {"Content-Type": "application/merge-patch+json"}))
    for body in ["", " ", "null", "[]", "1", '"x"', "{", "}", "{}", '{"kind":5}', '{"apiVersion":[]}',
                 '{"metadata":[]}', '{"metadata":"x"}', '{"metadata":{"name":5}}', '{"metadata":{"labels":[]}}',
                 "\xff\xfe", "\x00" * 10, '{"a":"\\ud800"}', '{"a":1e999}', '{"a":-0}', '{"a":01}',
                 '{"metadata":{"name":"big"},"data":{"a":"' + "x" * 2000000 + '"}}',
                 '{"metadata":{"name":"ok14"},"data":{"a":"' + "x" * 1400000 + '"}}']:
        for coll in rng.sample(COLLECTIONS, 3) + REVIEWS[:1]:
            add("body %r to %s" % (body[:30], coll), request("POST", coll, body, JSON))

    # Bodies: YAML.
    yamls = ["a: [\n", "\t- a", "a: &x [*x]", "a: *nope", "- a\n- b", "key: value\n  bad: indent",
             "a: b\n---\nc: d", "--- !!binary x", "a: !!int x", "{" * 600 + "}" * 600, "[" * 12000,
             "- " * 3000 + "x", "a: " + "x" * 100000, "metadata:\n  name: ~\n  labels:\n    a: ~", "? [a]: b",
             "".join("a%d: &a%d [*a%d]\n" % (i + 1, i + 1, i) for i in range(5000)).replace("[*a0]", "[1]", 1),
             "a: &a [x,x,x,x,x,x,x,x,x]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\n"
             "d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]\ne: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]\nf: [*e,*e,*e,*e,*e,*e,*e,*e]",
             "metadata: {name: y}\ndata: {a: 1}", "\ufeffmetadata: {name: bom}", "%YAML 2.0\n---\na: b"]
    for y in yamls:
        for coll in rng.sample(COLLECTIONS, 2):
            add("yaml %r" % y[:30], request("POST", coll, y, YAML))

    # Bodies: protobuf.
    good = pb_configmap("pbcm", {"a": "b"})
    for _ in range(150):
        b = bytearray(good)
        op = rng.randrange(4)
        if op == 0:
            b = b[:rng.randrange(len(b))]
        elif op == 1:
            for _ in range(rng.randint(1, 4)):
                b[rng.randrange(len(b))] = rng.randrange(256)
        elif op == 2:
            b = b[:4] + bytes(rng.randrange(256) for _ in range(rng.randint(0, 64)))
        else:
            b += bytes(rng.randrange(256) for _ in range(rng.randint(1, 32)))
        add("protobuf mutation", request("POST", NS + "/configmaps", bytes(b), PB))
    nested = b"\x01"
    for _ in range(200):
        nested = field(1, nested)
    for raw in [b"", b"k8s", b"k8s\x00", b"k8s\x00\x0a\xff\xff\xff\xff\x0f", envelope("v1", "Secret", b""),
                envelope("", "", b""), envelope("v1", "ConfigMap", field(1, nested)),
                envelope("v1", "ConfigMap", b"\x0a\x80\x80\x80\x80\x80\x80\x80\x80\x80\x01"),
                envelope("v1", "DeleteOptions", b""), envelope("v1", "Pod", field(2, field(2, field(1, "\xff"))))]:
        for coll in [NS + "/configmaps", NS + "/pods"]:
            add("protobuf %r" % raw[:20], request("POST", coll, raw, PB))
        add("protobuf delete %r" % raw[:20], request("DELETE", NS + "/configmaps/c0", raw, PB))

    # Patches.
    patches = {
        "application/json-patch+json": ['[{"op":"add","path":"/data/x","value":1}]', '[{"op":"bogus"}]', '{}',
                                        '[{"op":"move","from":"/data","path":"/data/a"}]', '[' * 20000,
                                        '[{"op":"copy","from":"/metadata","path":"/data/m"}]' * 1,
                                        '[' + ",".join('{"op":"test","path":"/a","value":1}' for _ in range(
                                            10001)) + ']', '[{"op":"replace","path":"/metadata/name","value":null}]',
                                        '[{"op":"add","path":"/metadata/labels/~2","value":"x"}]'],
        "application/merge-patch+json": ['null', '[]', '{"metadata":{"name":null}}', '{"data":null}',
                                         '{"metadata":{"namespace":null,"labels":{"a":null}}}', '"x"', '{'],
        "application/strategic-merge-patch+json": [
            '{"$patch":"delete"}', '{"spec":{"containers":[{"$patch":"delete"}]}}', '{"$retainKeys":["a"]}',
            '{"spec":{"$setElementOrder/containers":[{"name":"c"},5]}}', '{"metadata":{"$deleteFromPrimitiveList/finalizers":5}}',
            '{"spec":{"containers":[{"name":null}]}}', '{"spec":{"containers":"x"}}', '{"metadata":{"labels":[]}}'],
        "application/apply-patch+yaml": ["a: b"], "text/plain": ["{}"], "": ["{}"],
    }
    for ctype, bodies in patches.items():
        for body in bodies:
            for target in [NS + "/configmaps/c0", NS + "/pods/p0", "/apis/apps/v1/namespaces/default/deployments/dep",
                           "/apis/apps/v1/namespaces/default/deployments/dep/scale", NS + "/pods/p0/status",
                           NS + "/configmaps/absent"]:
                add("patch %s %r" % (ctype, body[:40]), request("PATCH", target, body, {"Content-Type": ctype}))

    # Headers.
    odd_headers = [
        {"Content-Type": "application/json; charset=utf-16"}, {"Content-Type": "application/json;;;"},
        {"Content-Type": "multipart/form-data; boundary=x"}, {"Content-Type": "x" * 9000},
        {"Accept": "application/vnd.kubernetes.protobuf;as=Table;v=v1;g=meta.k8s.io"}, {"Accept": "*/*;q=abc"},
        {"Accept": "application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1"}, {"Accept": "text/html"},
        {"Accept": ",".join(["application/json"] * 2000)}, {"Accept-Encoding": "gzip, br"},
        {"Content-Encoding": "gzip"}, {"Content-Encoding": "br"}, {"Expect": "100-continue"},
        {"Connection": "close"}, {"X-" + "a" * 100: "b"}, {"Transfer-Encoding": "gzip, chunked"},
        {"Transfer-Encoding": "identity"}, {"Content-Length": "-1"}, {"Content-Length": "abc"},
        {"Content-Length": "1, 2"}, {"Content-Length": "99999999999999999999999"}, {"Content-Length": ""},
        {"Content-Length": "0x10"}, {"Host": ""}, {"Range": "bytes=0-1"}, {"Range": "bytes=x"},
    ]
    for h in odd_headers:
        for method, path in [("GET", NS + "/configmaps"), ("POST", NS + "/configmaps"), ("DELETE", NS + "/configmaps/x"),
                             ("PUT", NS + "/configmaps/c0"), ("GET", "/api")]:
            add("header %r %s" % (list(h.items())[0][0][:20], method),
                request(method, path, json.dumps(objs["configmaps"]) if method in ("POST", "PUT") else "", h,
                        content_length=not any(k.lower() in ("content-length", "transfer-encoding") for k in h)),
                half_close=True)
    add("many headers", request("GET", "/api", headers={"X-H%d" % i: "v" for i in range(3000)}))
    add("head over 1 MiB", request("GET", "/api", headers={"X-Big": "b" * (1 << 20)}))
    add("header line over 8 KiB", request("GET", "/api", headers={"X-Big": "b" * 9000}))
    add("HTTP/1.0", request("GET", "/api", version="HTTP/1.0"))
    add("HTTP/2.0 request line", request("GET", "/api", version="HTTP/2.0"))
    add("bad method", request("FROB", "/api"))
    add("lower-case method", request("get", "/api"))
    add("CONNECT", request("CONNECT", "127.0.0.1:1"))
    add("TRACE", request("TRACE", "/api"))
    add("garbage request line", b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03" + os.urandom(64) + b"\r\n\r\n")
    add("no request line", b"\r\n\r\n")
    add("only LF", b"GET /api HTTP/1.1\nHost: x\n\n")

    # Framing: missing, lying and unusable lengths; chunked bodies.
    cm = json.dumps(objs["configmaps"]).encode()
    add("POST without body or length", request("POST", NS + "/configmaps", content_length=False))
    add("PUT without body or length", request("PUT", NS + "/configmaps/c0", content_length=False))
    add("PATCH without body or length", request("PATCH", NS + "/configmaps/c0", headers={
        "Content-Type": "application/merge-patch+json"}, content_length=False))
    add("length longer than body", request("POST", NS + "/configmaps", cm, {"Content-Length": str(len(cm) + 50)}),
        half_close=True)
    add("length shorter than body", request("POST", NS + "/configmaps", cm, {"Content-Length": str(len(cm) - 5)}))
    add("chunked", request("POST", NS + "/configmaps", chunked(cm, 7), {"Transfer-Encoding": "chunked", **JSON}))
    add("chunked bad size", request("POST", NS + "/configmaps", b"zz\r\nabc\r\n0\r\n\r\n",
                                    {"Transfer-Encoding": "chunked", **JSON}), half_close=True)
    add("chunked missing CRLF", request("POST", NS + "/configmaps", b"3\r\nabcX0\r\n\r\n",
                                        {"Transfer-Encoding": "chunked", **JSON}), half_close=True)
    add("chunked cut short", request("POST", NS + "/configmaps", b"100\r\nabc", {"Transfer-Encoding": "chunked",
                                                                                **JSON}), half_close=True)
    add("chunked huge size", request("POST", NS + "/configmaps", b"ffffffffffffffff\r\nabc\r\n",
                                     {"Transfer-Encoding": "chunked", **JSON}), half_close=True)
    big = b'{"metadata":{"name":"huge"},"data":{"a":"' + b"x" * (20 << 20) + b'"}}'
    add("20 MiB chunked", request("POST", NS + "/configmaps", chunked(big, 1 << 16),
                                  {"Transfer-Encoding": "chunked", **JSON}), background_send=True)
    add("20 MiB with length", request("POST", NS + "/configmaps", big, JSON), background_send=True)
    add("length of 20 MiB, body of 10 bytes", request("POST", NS + "/configmaps", b"0123456789",
                                                       {"Content-Length": str(20 << 20), **JSON}), half_close=True)
    add("GET with a body", request("GET", NS + "/configmaps", cm, JSON))
    add("GET chunked", request("GET", NS + "/configmaps", chunked(cm), {"Transfer-Encoding": "chunked"}))
    return out


# --------------------------------------------------------------------------------------------

CODES = {}  # answers per HTTP code (None: no answer)


def peak_rss_kib(pid):
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    return -1


def check(label, answer):
    """A problem with the answer, or None."""
    CODES[answer.code] = CODES.get(answer.code, 0) + 1
    if answer.error:
        return answer.error
    if answer.code >= 500:
        return "code %d: %s" % (answer.code, answer.body[:300])
    if answer.head_bytes > HEAD_BOUND:
        return "answer head of %d bytes" % answer.head_bytes
    ctype = answer.headers.get("content-type", "")
    if ctype.startswith("application/json") and answer.body:
        try:
            json.loads(answer.body)
        except RecursionError:
            pass  # deeper than Python's parser goes (a deep free-form value echoed back)
        except ValueError:
            return "malformed JSON body: %r" % answer.body[:200]
    return None


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    server = subprocess.Popen([sys.argv[1], "--port", "0"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                              text=True)
    try:
        line = server.stdout.readline()
        m = re.search(r"http://[\d.]+:(\d+)", line)
        if not m:
            print("FAIL server did not start: %r" % line)
            return 1
        port = int(m.group(1))
        rng = random.Random(SEED)
        requests = corpus(rng)
        seeds = [r for r in requests if r[0].startswith("seed ")]
        rest = [r for r in requests if not r[0].startswith("seed ")]
        rng.shuffle(rest)
        started = time.monotonic()
        failures = []
        for label, raw, opts in seeds:
            exchange(port, raw, **opts)

        def run(item):
            label, raw, opts = item
            return label, raw, check(label, exchange(port, raw, **opts))

        done = 0
        with concurrent.futures.ThreadPoolExecutor(WORKERS) as pool:
            for label, raw, problem in pool.map(run, rest):
                done += 1
                if problem:
                    failures.append("%s: %s\n     request: %r" % (label, problem, raw[:200]))
                if server.poll() is not None:
                    failures.append("server exited with %s after %r" % (server.returncode, label))
                    break
        elapsed = time.monotonic() - started
        health = exchange(port, request("GET", "/healthz")) if server.poll() is None else Answer(error="server down")
        if health.error or health.code != 200:
            failures.append("server unhealthy at the end: %s %s" % (health.code, health.error))
        peak = peak_rss_kib(server.pid) if server.poll() is None else -1
        print("%d requests in %.1fs, %d failures, peak RSS %.0f MiB (bound %.0f MiB)" % (
            done + len(seeds), elapsed, len(failures), peak / 1024, PEAK_RSS_BOUND_KIB / 1024))
        print("answers by code: " + ", ".join("%s: %d" % (c, n) for c, n in sorted(CODES.items(), key=str)))
        if peak > PEAK_RSS_BOUND_KIB:
            failures.append("peak RSS %d KiB over the bound of %d KiB" % (peak, PEAK_RSS_BOUND_KIB))
        for f in failures[:50]:
            print("FAIL " + f)
        return 1 if failures else 0
    finally:
        server.terminate()
        try:
            server.wait(10)
        except subprocess.TimeoutExpired:
            server.kill()


if __name__ == "__main__":
    sys.exit(main())
