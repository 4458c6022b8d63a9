// Tests of the harness itself (no server): the corpus is well formed and large enough, the JSON
// rewriting keeps every byte it does not change, and each normalisation rule does what
// normalise.go says.
package golden

import (
	"strings"
	"testing"
	"time"
)

func TestCorpusWellFormed(t *testing.T) {
	files, err := LoadCorpus(corpusDir)
	if err != nil {
		t.Fatal(err)
	}
	total := 0
	for _, f := range files {
		n := 0
		for i := range f.Steps {
			s := &f.Steps[i]
			if s.Recorded() {
				n++
			}
			if strings.Contains(s.Path, "/namespaces/") && !strings.Contains(s.Path, "/namespaces/golden-") {
				t.Errorf("%s/%s: namespaced paths must use the file's own golden-* namespace", f.Name, s.Name)
			}
		}
		if n == 0 {
			t.Errorf("%s records nothing", f.Name)
		}
		total += n
	}
	if total < 300 {
		t.Errorf("the corpus records %d exchanges; at least 300 are wanted", total)
	}
	t.Logf("%d corpus files, %d recorded exchanges", len(files), total)
}

func TestRenderKeepsBytes(t *testing.T) {
	for _, doc := range []string{
		`{"a":1,"b":[true,false,null],"c":{"d":"\u003cx\u003e"}}` + "\n",
		"{ \"a\" : [ 1 , 2 ] ,\n  \"b\":{} }",
		`[]`, `"s"`, `-1.5e3`,
	} {
		root, err := parseJSONTree([]byte(doc))
		if err != nil {
			t.Fatalf("%q: %v", doc, err)
		}
		if got := string(render([]byte(doc), root)); got != strings.TrimRight(doc, "\n") && got != doc {
			t.Errorf("render(%q) = %q", doc, got)
		}
	}
}

func TestDropMembers(t *testing.T) {
	src := []byte(`{"description":"x","a":1,"description2":2,"b":{"description":"y"}}`)
	root, err := parseJSONTree(src)
	if err != nil {
		t.Fatal(err)
	}
	root.dropMember(0)
	root.dropMember(2)
	root.vals[3].dropMember(0)
	if got, want := string(render(src, root)), `{"a":1,"b":{}}`; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}

func TestNormaliseRules(t *testing.T) {
	now := time.Now().UTC()
	stamp := now.Format(time.RFC3339)
	micro := now.Format("2006-01-02T15:04:05.000000Z07:00")
	n := NewNormaliser("127.0.0.1:40123")
	n.SetStep("create")
	body := `{"kind":"ConfigMap","metadata":{"name":"gen-x7k2p","generateName":"gen-","uid":"0b7e0c5e-1f2a-4b3c-8d9e-0a1b2c3d4e5f",` +
		`"resourceVersion":"812","creationTimestamp":"` + stamp + `","managedFields":[{"time":"` + micro + `"}]},` +
		`"data":{"old":"2024-05-01T10:00:00Z","addr":"https://127.0.0.1:40123/x"}}` + "\n"
	got := string(n.JSON([]byte(body), BodyContext{Path: "/api/v1/namespaces/golden-x/configmaps"}))
	want := `{"kind":"ConfigMap","metadata":{"name":"gen-GEN:create","generateName":"gen-","uid":"UID:create",` +
		`"resourceVersion":"RV:create","creationTimestamp":"0000-00-00T00:00:00Z","managedFields":[{"time":"0000-00-00T00:00:00.000000Z"}]},` +
		`"data":{"old":"2024-05-01T10:00:00Z","addr":"https://SERVER:PORT/x"}}` + "\n"
	if got != want {
		t.Errorf("create:\n got  %s\n want %s", got, want)
	}

	// A later step: the same uid and resourceVersion keep their tokens, a new revision gets a
	// token named after this step, and the generated name is replaced wherever it is quoted.
	n.SetStep("list")
	list := `{"kind":"ConfigMapList","metadata":{"resourceVersion":"900","continue":"eyJ2IjoibWV0YS5rOHMuaW8vdjEifQ"},"items":[` +
		`{"metadata":{"uid":"0b7e0c5e-1f2a-4b3c-8d9e-0a1b2c3d4e5f","resourceVersion":"812"}},{"metadata":{"resourceVersion":"813"}}],` +
		`"note":"gen-x7k2p"}`
	got = string(n.JSON([]byte(list), BodyContext{}))
	want = `{"kind":"ConfigMapList","metadata":{"resourceVersion":"LIST-RV","continue":"CONTINUE"},"items":[` +
		`{"metadata":{"uid":"UID:create","resourceVersion":"RV:create"}},{"metadata":{"resourceVersion":"RV:list"}}],` +
		`"note":"gen-GEN:create"}`
	if got != want {
		t.Errorf("list:\n got  %s\n want %s", got, want)
	}

	n.SetStep("svc")
	svc := `{"spec":{"clusterIP":"10.0.0.17","clusterIPs":["10.0.0.17"],"ports":[{"port":80,"nodePort":31234}]}}`
	if got, want := string(n.JSON([]byte(svc), BodyContext{})),
		`{"spec":{"clusterIP":"IP:svc","clusterIPs":["IP:svc"],"ports":[{"port":80,"nodePort":"NODEPORT:svc"}]}}`; got != want {
		t.Errorf("svc:\n got  %s\n want %s", got, want)
	}

	n.SetStep("watch")
	ev := `{"type":"BOOKMARK","object":{"kind":"ConfigMap","metadata":{"resourceVersion":"950"}}}`
	if got, want := string(n.JSON([]byte(ev), BodyContext{})),
		`{"type":"BOOKMARK","object":{"kind":"ConfigMap","metadata":{"resourceVersion":"LIST-RV"}}}`; got != want {
		t.Errorf("bookmark:\n got  %s\n want %s", got, want)
	}
	msg := `{"message":"too old resource version: 1 (345)"}`
	if got, want := string(n.JSON([]byte(msg), BodyContext{})), `{"message":"too old resource version: 1 (CURRENT)"}`; got != want {
		t.Errorf("expired: got %s, want %s", got, want)
	}

	n.SetStep("table")
	table := `{"kind":"Table","columnDefinitions":[{"name":"Name","type":"string","description":"prose"},{"name":"Age","type":"string"}],` +
		`"rows":[{"cells":["a","5s"]}]}`
	if got, want := string(n.JSON([]byte(table), BodyContext{})),
		`{"kind":"Table","columnDefinitions":[{"name":"Name","type":"string"},{"name":"Age","type":"string"}],"rows":[{"cells":["a","AGE"]}]}`; got != want {
		t.Errorf("table:\n got  %s\n want %s", got, want)
	}
	// A later Table of the same watch has no column definitions; the columns found before apply.
	if got, want := string(n.JSON([]byte(`{"kind":"Table","rows":[{"cells":["a","9s"]}]}`), BodyContext{})),
		`{"kind":"Table","rows":[{"cells":["a","AGE"]}]}`; got != want {
		t.Errorf("table without columns: got %s, want %s", got, want)
	}

	openapi := `{"components":{"schemas":{"x":{"description":"prose","type":"object"}}},"paths":{"/api/v1?hash=ABC123":{}}}`
	if got, want := string(n.JSON([]byte(openapi), BodyContext{Path: "/openapi/v3/api/v1"})),
		`{"components":{"schemas":{"x":{"type":"object"}}},"paths":{"/api/v1?hash=HASH":{}}}`; got != want {
		t.Errorf("openapi:\n got  %s\n want %s", got, want)
	}

	version := `{"major":"1","minor":"36","gitVersion":"v1.36.5","gitCommit":"abc","buildDate":"2026-09-23T17:07:00Z","platform":"linux/amd64"}`
	if got, want := string(n.JSON([]byte(version), BodyContext{Path: "/version"})),
		`{"major":"1","minor":"36","gitVersion":"v1.36.x","gitCommit":"BUILD","buildDate":"BUILD","platform":"BUILD"}`; got != want {
		t.Errorf("version:\n got  %s\n want %s", got, want)
	}
}

func TestBodyExactBytes(t *testing.T) {
	for _, b := range []string{`{"a":1}`, "{\"a\":1}\n", "{ \"a\": 1 }", "ok", "404 page not found\n"} {
		if got := string(bodyFromBytes([]byte(b)).Exact()); got != b {
			t.Errorf("bodyFromBytes(%q).Exact() = %q", b, got)
		}
	}
}

func TestSplitJSONFrame(t *testing.T) {
	buf := []byte("{\"type\":\"ADDED\",\"object\":{\"s\":\"}\\\"\"}}\n{\"type\":")
	f, rest := splitJSONFrame(buf, false)
	if string(f) != "{\"type\":\"ADDED\",\"object\":{\"s\":\"}\\\"\"}}\n" || string(rest) != "{\"type\":" {
		t.Errorf("frame %q rest %q", f, rest)
	}
	if f, _ := splitJSONFrame([]byte(`{"a":1}`), false); f != nil {
		t.Errorf("a frame without a following byte is complete only when final, got %q", f)
	}
	if f, _ := splitJSONFrame([]byte(`{"a":1}`), true); string(f) != `{"a":1}` {
		t.Errorf("final frame %q", f)
	}
}

func TestNormaliseYAML(t *testing.T) {
	n := NewNormaliser("127.0.0.1:1")
	n.SetStep("get")
	doc := "apiVersion: v1\nitems:\n- metadata:\n    name: a\n    resourceVersion: \"203\"\n    uid: 0b7e0c5e-1f2a-4b3c-8d9e-0a1b2c3d4e5f\nkind: ConfigMapList\nmetadata:\n  resourceVersion: \"204\"\n"
	want := "apiVersion: v1\nitems:\n- metadata:\n    name: a\n    resourceVersion: \"RV:get\"\n    uid: UID:get\nkind: ConfigMapList\nmetadata:\n  resourceVersion: \"LIST-RV\"\n"
	if got := string(n.YAML([]byte(doc), BodyContext{})); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

func TestNormalisePreconditionMessage(t *testing.T) {
	n := NewNormaliser("127.0.0.1:1")
	n.SetStep("create")
	n.JSON([]byte(`{"metadata":{"resourceVersion":"206"}}`), BodyContext{})
	n.SetStep("delete")
	got := string(n.Text([]byte(`the ResourceVersion in the precondition (206) does not match the ResourceVersion in record (207)`)))
	if want := `the ResourceVersion in the precondition (RV:create) does not match the ResourceVersion in record (RV:delete)`; got != want {
		t.Errorf("got %s", got)
	}
}

func TestNormaliseOrderRules(t *testing.T) {
	n := NewNormaliser("127.0.0.1:6443")
	n.SetStep("review")
	review := `{"kind":"SelfSubjectRulesReview","status":{"resourceRules":[{"verbs":["get"]},{"verbs":["create"]}],"nonResourceRules":[{"verbs":["get"],"nonResourceURLs":["/b"]},{"verbs":["get"],"nonResourceURLs":["/a"]}]}}`
	want := `{"kind":"SelfSubjectRulesReview","status":{"resourceRules":[{"verbs":["create"]},{"verbs":["get"]}],"nonResourceRules":[{"verbs":["get"],"nonResourceURLs":["/a"]},{"verbs":["get"],"nonResourceURLs":["/b"]}]}}`
	if got := string(n.JSON([]byte(review), BodyContext{})); got != want {
		t.Errorf("rules review:\n got  %s\n want %s", got, want)
	}
	status := `{"kind":"Status","message":"Box \"b\" is invalid: [spec.z: Required value, spec.a: Too long: x]","reason":"Invalid","details":{"causes":[` +
		`{"reason":"FieldValueRequired","message":"Required value","field":"spec.z"},{"reason":"FieldValueTooLong","message":"Too long: x","field":"spec.a"}]}}`
	want = `{"kind":"Status","message":"Box \"b\" is invalid: [spec.a: Too long: x, spec.z: Required value]","reason":"Invalid","details":{"causes":[` +
		`{"reason":"FieldValueTooLong","message":"Too long: x","field":"spec.a"},{"reason":"FieldValueRequired","message":"Required value","field":"spec.z"}]}}`
	if got := string(n.JSON([]byte(status), BodyContext{Path: "/apis/schema.golden.example.com/v1/namespaces/golden-schema/boxes"})); got != want {
		t.Errorf("custom resource causes:\n got  %s\n want %s", got, want)
	}
	// Built-in kinds keep the server's order.
	if got := string(n.JSON([]byte(status), BodyContext{Path: "/api/v1/namespaces/golden-x/configmaps"})); got != status {
		t.Errorf("built-in causes were reordered: %s", got)
	}
	addr := `{"serverAddress":"192.0.2.2:6443","other":"10.0.0.1:443","cred":"X509SHA256=` + strings.Repeat("ab", 32) + `"}`
	if got, want := string(n.JSON([]byte(addr), BodyContext{})), `{"serverAddress":"SERVER:PORT","other":"10.0.0.1:443","cred":"X509SHA256=CERT"}`; got != want {
		t.Errorf("addresses: got %s", got)
	}
}

func TestNormaliseManagedFieldsOrder(t *testing.T) {
	n := NewNormaliser("127.0.0.1:1")
	n.SetStep("get")
	doc := `{"metadata":{"managedFields":[{"manager":"z","operation":"Update"},{"manager":"b","operation":"Apply"},{"manager":"a","operation":"Apply","subresource":"status"}]}}`
	want := `{"metadata":{"managedFields":[{"manager":"a","operation":"Apply","subresource":"status"},{"manager":"b","operation":"Apply"},{"manager":"z","operation":"Update"}]}}`
	if got := string(n.JSON([]byte(doc), BodyContext{})); got != want {
		t.Errorf("got %s", got)
	}
}

func TestLooseKeepsFieldsV1(t *testing.T) {
	doc := `{"b":null,"a":{"x":{}},"metadata":{"managedFields":[{"manager":"m","fieldsV1":{"f:spec":{"f:selector":{}}}}]}}`
	want := `{"metadata":{"managedFields":[{"fieldsV1":{"f:spec":{"f:selector":{}}},"manager":"m"}]}}`
	if got := string(looseJSON([]byte(doc))); got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}
