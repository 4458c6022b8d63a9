// The normalisation rules: the only differences between two servers' answers that the golden
// comparison forgives. Each rule is named, says why, and rewrites one kind of value in place;
// everything else in a body is compared byte for byte (field order, whitespace, escapes, the
// trailing newline). Values that identify objects are mapped to tokens named after the step where
// they first appeared ("RV:create-configmap", "UID:create-pod.2"), so equality between steps is
// still checked: an update must answer a new resourceVersion, a get the one the update answered.
package golden

import (
	"bytes"
	"fmt"
	"regexp"
	"sort"
	"strings"
	"time"
)

// Rule documents one normalisation rule.
type Rule struct {
	Name   string
	Reason string
}

// Rules lists every rule, in the order they are applied: the text rules first (on the raw bytes of
// any body, header value or decoded protobuf), then the structural rules (on JSON documents).
var Rules = []Rule{
	{"serving-address", "envtest picks a free port per run, and the real server advertises the host's own address (discovery's serverAddressByClientCIDRs); any host:port with the server's port becomes SERVER:PORT"},
	{"credential-id", "envtest issues new client certificates every run; the credential id of a certificate user (X509SHA256=<fingerprint>) becomes X509SHA256=CERT"},
	{"uid", "object UIDs are random; each UUID becomes UID:<step where first seen>[.n]"},
	{"server-time", "the server stamps the current time (creationTimestamp, managedFields time, conditions, token expiry); an RFC 3339 time within 48 hours of the run has its digits replaced by 0, keeping its format and precision. Times written by the corpus (2024) are kept"},
	{"jwt", "service account tokens are signed with a per-run key and carry times; a JWT becomes JWT"},
	{"message-resource-version", "a precondition conflict quotes both revisions ('the ResourceVersion in the precondition (N) does not match the ResourceVersion in record (M)'); each becomes its RV token as under resource-version"},
	{"message-current-revision", "the current revision quoted in 'too old resource version: N (M)' and 'Too large resource version: N, current: M' counts writes of the real server's own controllers (leases); M becomes CURRENT"},
	{"openapi-hash", "OpenAPI v3 index URLs carry a hash of each document (?hash=...); the documents themselves are compared"},
	{"generated-name", "generateName adds 5 random characters; such a name becomes <generateName>GEN:<step>[.n], also where it is quoted later"},
	{"list-resource-version", "a list's, Table's or watch bookmark's resourceVersion is the store's current revision, which on the real server includes unrelated writes (its leases); it becomes LIST-RV"},
	{"resource-version", "every other resourceVersion is a revision number; it becomes RV:<step where first seen>[.n]"},
	{"continue-token", "continue tokens are opaque and encode a revision; a non-empty metadata.continue of a document (a list, or the Status of an expired continue) becomes CONTINUE"},
	{"cluster-ip", "service IPs are allocated at random from 10.0.0.0/24; spec.clusterIP and spec.clusterIPs[] (other than None) become IP:<step>[.n]"},
	{"node-port", "node ports are allocated at random from 30000-32767; ports[].nodePort and spec.healthCheckNodePort become NODEPORT:<step>[.n]"},
	{"table-age", "Table cells of a column named Age or of type date hold the time since creation (e.g. 3s); they become AGE"},
	{"upstream-prose", "the project deliberately ships no upstream API description prose (see /work/shared/kubernetes-api/README.md); description members are dropped from /openapi bodies and from Table columnDefinitions, whose descriptions are that prose"},
	{"managed-fields-order", "the real server orders managedFields by operation, then time to the second, then manager; times are masked (server-time) and whether two writes fall in one second is chance, so entries are sorted by operation, manager and subresource"},
	{"rules-review-order", "a SelfSubjectRulesReview gathers rules from the bindings in no fixed order (the real server answers differently from run to run; kubectl sorts them); its resourceRules and nonResourceRules are sorted by their bytes"},
	{"custom-resource-cause-order", "the real server validates a custom resource's properties in Go map order, so the causes of an Invalid answer for a custom resource come in a different order each run; when the message is exactly the causes joined in brackets, the causes are sorted by field and message and the message rebuilt in that order"},
	{"version-build", "/version's build details (gitCommit, gitTreeState, buildDate, goVersion, compiler, platform) describe the binary, and any 1.36 patch release is the target: gitVersion v1.36.N becomes v1.36.x, the build fields BUILD"},
}

// Normaliser applies the rules for one corpus file; it keeps the tokens between steps.
type Normaliser struct {
	now      time.Time
	port     string            // the server's port
	tokens   map[string]string // class + "\x00" + value → token
	perStep  map[string]int    // class + "\x00" + step → tokens made so far
	literals [][2]string       // generated names → tokens, replaced in all later text
	step     string
	// ageColumns are the Age/date column indexes of the last Table with column definitions.
	ageColumns []int
}

// NewNormaliser makes a normaliser for a server reached at host:port.
func NewNormaliser(hostPort string) *Normaliser {
	n := &Normaliser{now: time.Now(), tokens: map[string]string{}, perStep: map[string]int{}}
	if i := strings.LastIndex(hostPort, ":"); i >= 0 {
		n.port = hostPort[i+1:]
	}
	return n
}

// SetStep names the step whose answer is normalised next (for token names).
func (n *Normaliser) SetStep(step string) {
	n.step = step
	n.ageColumns = nil
}

func (n *Normaliser) token(class, value string) string {
	key := class + "\x00" + value
	if t, ok := n.tokens[key]; ok {
		return t
	}
	sk := class + "\x00" + n.step
	n.perStep[sk]++
	t := class + ":" + n.step
	if c := n.perStep[sk]; c > 1 {
		t += fmt.Sprintf(".%d", c)
	}
	n.tokens[key] = t
	return t
}

var (
	uuidRE         = regexp.MustCompile(`[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}`)
	timeRE         = regexp.MustCompile(`\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})`)
	jwtRE          = regexp.MustCompile(`eyJ[A-Za-z0-9_-]+\.eyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+`)
	preconditionRE = regexp.MustCompile(`(ResourceVersion in the precondition \()(\d+)(\) does not match the ResourceVersion in record \()(\d+)(\))`)
	credentialRE   = regexp.MustCompile(`X509SHA256=[0-9a-f]{64}`)
	tooOldRE       = regexp.MustCompile(`(too old resource version: \d+ \()\d+(\))`)
	tooLargeRE     = regexp.MustCompile(`(Too large resource version: \d+, current: )\d+`)
	openapiHashRE  = regexp.MustCompile(`hash=[0-9A-Za-z]+`)
	gitVersionRE   = regexp.MustCompile(`^v1\.36\.\d+`)
	digitRE        = regexp.MustCompile(`\d`)
	maskedTimeRE   = regexp.MustCompile(`^0000-00-00T00:00:00`)
	versionMasked  = map[string]bool{"gitCommit": true, "gitTreeState": true, "buildDate": true, "goVersion": true, "compiler": true, "platform": true}
	listLikeSuffix = []string{"List", "Table"}
)

// Text applies the text rules to any bytes (a body that is not JSON, a header value, or a JSON
// body before its structural rules).
func (n *Normaliser) Text(b []byte) []byte {
	if n.port != "" {
		hostRE := regexp.MustCompile(`(\b\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}|\blocalhost|\[[0-9a-fA-F:]*\]):` + n.port + `\b`)
		b = hostRE.ReplaceAll(b, []byte("SERVER:PORT"))
	}
	b = credentialRE.ReplaceAll(b, []byte("X509SHA256=CERT"))
	b = uuidRE.ReplaceAllFunc(b, func(m []byte) []byte { return []byte(n.token("UID", string(m))) })
	b = timeRE.ReplaceAllFunc(b, func(m []byte) []byte {
		t, err := time.Parse(time.RFC3339Nano, string(m))
		if err != nil || t.Sub(n.now).Abs() > 48*time.Hour {
			return m
		}
		return digitRE.ReplaceAll(m, []byte("0"))
	})
	b = jwtRE.ReplaceAll(b, []byte("JWT"))
	b = preconditionRE.ReplaceAllFunc(b, func(m []byte) []byte {
		g := preconditionRE.FindSubmatch(m)
		return []byte(string(g[1]) + n.token("RV", string(g[2])) + string(g[3]) + n.token("RV", string(g[4])) + string(g[5]))
	})
	b = tooOldRE.ReplaceAll(b, []byte("${1}CURRENT${2}"))
	b = tooLargeRE.ReplaceAll(b, []byte("${1}CURRENT"))
	b = openapiHashRE.ReplaceAll(b, []byte("hash=HASH"))
	for _, l := range n.literals {
		b = bytes.ReplaceAll(b, []byte(l[0]), []byte(l[1]))
	}
	return b
}

// BodyContext says where a JSON document came from.
type BodyContext struct {
	Path string // the request path without the query
}

// JSON normalises one JSON document: the text rules, then the structural rules. A body that does
// not parse gets the text rules only.
func (n *Normaliser) JSON(b []byte, ctx BodyContext) []byte {
	b = n.Text(b)
	root, err := parseJSONTree(b)
	if err != nil {
		return b
	}
	before := len(n.literals)
	w := &walker{n: n, src: b, ctx: ctx}
	w.root(root)
	out := append(append(append([]byte(nil), b[:root.start]...), render(b, root)...), b[root.end:]...)
	for _, l := range n.literals[before:] {
		out = bytes.ReplaceAll(out, []byte(l[0]), []byte(l[1]))
	}
	return out
}

// YAML normalises one YAML document: the text rules, then the structural rules on its scalars.
func (n *Normaliser) YAML(b []byte, ctx BodyContext) []byte {
	b = n.Text(b)
	root, err := parseYAMLTree(b)
	if err != nil {
		return b
	}
	before := len(n.literals)
	w := &walker{n: n, src: b, ctx: ctx}
	w.root(root)
	out := spliceReplacements(b, root)
	for _, l := range n.literals[before:] {
		out = bytes.ReplaceAll(out, []byte(l[0]), []byte(l[1]))
	}
	return out
}

type walker struct {
	n   *Normaliser
	src []byte
	ctx BodyContext
}

// root walks a document. A watch event's object is treated as a document root of its own.
func (w *walker) root(doc *jnode) {
	if doc.kind == jObject && doc.member("type") != nil && doc.member("object") != nil && len(doc.keys) == 2 {
		w.topObject(doc.member("object"), doc.memberString("type") == "BOOKMARK")
		w.walk(doc, nil)
		return
	}
	w.topObject(doc, false)
	w.walk(doc, nil)
}

// topObject applies list-resource-version to a top-level list, Table or bookmark.
func (w *walker) topObject(obj *jnode, bookmark bool) {
	if obj == nil || obj.kind != jObject {
		return
	}
	kind := obj.memberString("kind")
	listLike := bookmark
	for _, s := range listLikeSuffix {
		if strings.HasSuffix(kind, s) {
			listLike = true
		}
	}
	if md := obj.member("metadata"); listLike && md != nil {
		if rv := md.member("resourceVersion"); rv != nil && rv.kind == jString && rv.str != "" {
			rv.repl = jsonString("LIST-RV")
		}
	}
	if md := obj.member("metadata"); md != nil {
		if c := md.member("continue"); c != nil && c.kind == jString && c.str != "" {
			c.repl = jsonString("CONTINUE")
		}
	}
}

func (w *walker) walk(node *jnode, path []string) {
	switch node.kind {
	case jArray:
		for _, v := range node.vals {
			w.walk(v, append(path, "[]"))
		}
	case jObject:
		w.object(node, path)
		for i, k := range node.keys {
			if node.drop != nil && node.drop[i] {
				continue
			}
			if node.vals[i].repl == nil {
				w.walk(node.vals[i], append(path, k))
			}
		}
	}
}

// raw is a scalar's source text (a YAML scalar without a known span: its value).
func (w *walker) raw(v *jnode) string {
	if v.start < 0 || v.end > len(w.src) {
		return v.str
	}
	return string(w.src[v.start:v.end])
}

// object applies the structural rules to the members of one object.
func (w *walker) object(obj *jnode, path []string) {
	n := w.n
	// generated-name
	if gen := obj.member("generateName"); gen != nil && gen.kind == jString && gen.str != "" {
		if name := obj.member("name"); name != nil && name.kind == jString && name.repl == nil &&
			strings.HasPrefix(name.str, gen.str) && len(name.str) > len(gen.str) {
			tok := gen.str + n.token("GEN", name.str)
			n.literals = append(n.literals, [2]string{name.str, tok})
			name.repl = jsonString(tok)
		}
	}
	// Table: table-age
	if obj.memberString("kind") == "Table" {
		w.tableAge(obj)
		if cols := obj.member("columnDefinitions"); cols != nil && cols.kind == jArray { // upstream-prose
			for _, c := range cols.vals {
				for i, k := range c.keys {
					if k == "description" {
						c.dropMember(i)
					}
				}
			}
		}
	}
	// managed-fields-order
	if mf := obj.member("managedFields"); mf != nil && mf.kind == jArray && len(mf.vals) > 1 {
		w.managedFieldsOrder(mf)
	}
	// rules-review-order
	if obj.memberString("kind") == "SelfSubjectRulesReview" {
		w.rulesReviewOrder(obj)
	}
	// custom-resource-cause-order
	if obj.memberString("kind") == "Status" && obj.memberString("reason") == "Invalid" && customResourcePath(w.ctx.Path) {
		w.customResourceCauseOrder(obj)
	}
	// upstream-prose
	if strings.HasPrefix(w.ctx.Path, "/openapi/") {
		for i, k := range obj.keys {
			if k == "description" && obj.vals[i].kind == jString {
				obj.dropMember(i)
			}
		}
	}
	// version-build
	if w.ctx.Path == "/version" && len(path) == 0 {
		for i, k := range obj.keys {
			v := obj.vals[i]
			if v.kind != jString {
				continue
			}
			if versionMasked[k] {
				v.repl = jsonString("BUILD")
			} else if k == "gitVersion" && gitVersionRE.MatchString(v.str) {
				v.repl = jsonString(gitVersionRE.ReplaceAllString(v.str, "v1.36.x"))
			}
		}
	}
	for i, k := range obj.keys {
		v := obj.vals[i]
		if v.repl != nil {
			continue
		}
		switch k {
		case "resourceVersion": // resource-version
			if v.kind == jString && v.str != "" {
				v.repl = jsonString(n.token("RV", v.str))
			}
		case "clusterIP": // cluster-ip
			if v.kind == jString && v.str != "" && v.str != "None" {
				v.repl = jsonString(n.token("IP", v.str))
			}
		case "clusterIPs":
			if v.kind == jArray {
				for _, e := range v.vals {
					if e.kind == jString && e.str != "" && e.str != "None" {
						e.repl = jsonString(n.token("IP", e.str))
					}
				}
			}
		case "nodePort", "healthCheckNodePort": // node-port
			if num := w.raw(v); v.kind == jNumber && num != "0" {
				v.repl = jsonString(n.token("NODEPORT", num))
			}
		}
	}
}

// tableAge replaces the cells of Age and date columns. A watch sends the column definitions with
// its first Table only, so the columns found last in the step are used when a Table has none.
func (w *walker) tableAge(table *jnode) {
	rows := table.member("rows")
	if rows == nil || rows.kind != jArray {
		return
	}
	if cols := table.member("columnDefinitions"); cols != nil && cols.kind == jArray && len(cols.vals) > 0 {
		w.n.ageColumns = w.n.ageColumns[:0]
		for i, c := range cols.vals {
			if c.memberString("name") == "Age" || c.memberString("type") == "date" {
				w.n.ageColumns = append(w.n.ageColumns, i)
			}
		}
	}
	for _, r := range rows.vals {
		cells := r.member("cells")
		if cells == nil || cells.kind != jArray {
			continue
		}
		for _, i := range w.n.ageColumns {
			if i < len(cells.vals) && cells.vals[i].kind == jString && !maskedTimeRE.MatchString(cells.vals[i].str) {
				cells.vals[i].repl = jsonString("AGE")
			}
		}
	}
}

// rulesReviewOrder sorts the rules of a SelfSubjectRulesReview.
func (w *walker) rulesReviewOrder(obj *jnode) {
	st := obj.member("status")
	for _, key := range []string{"resourceRules", "nonResourceRules"} {
		if arr := st.member(key); arr != nil && arr.kind == jArray && len(arr.vals) > 1 {
			var elems []string
			for _, e := range arr.vals {
				elems = append(elems, string(render(w.src, e)))
			}
			sort.Strings(elems)
			arr.repl = []byte("[" + strings.Join(elems, ",") + "]")
		}
	}
}

// customResourceCauseOrder sorts the causes of an Invalid Status about a custom resource.
func (w *walker) customResourceCauseOrder(status *jnode) {
	details := status.member("details")
	causes := details.member("causes")
	msg := status.member("message")
	if causes == nil || causes.kind != jArray || len(causes.vals) < 2 || msg == nil || msg.kind != jString {
		return
	}
	type cause struct {
		text, bytes string
	}
	var cs []cause
	for _, c := range causes.vals {
		if c.repl != nil {
			return
		}
		cs = append(cs, cause{c.memberString("field") + ": " + c.memberString("message"), string(w.src[c.start:c.end])})
	}
	open := strings.Index(msg.str, "[")
	if open < 0 || !strings.HasSuffix(msg.str, "]") {
		return
	}
	listed := msg.str[open+1 : len(msg.str)-1]
	texts := make([]string, len(cs))
	for i, c := range cs {
		texts[i] = c.text
	}
	sorted := append([]string(nil), texts...)
	sort.Strings(sorted)
	inAnyOrder := len(listed) == len(strings.Join(texts, ", "))
	for _, t := range texts {
		inAnyOrder = inAnyOrder && strings.Contains(listed, t)
	}
	if !inAnyOrder {
		return
	}
	sort.Slice(cs, func(a, b int) bool { return cs[a].text < cs[b].text })
	var elems []string
	for _, c := range cs {
		elems = append(elems, c.bytes)
	}
	causes.repl = []byte("[" + strings.Join(elems, ",") + "]")
	msg.repl = jsonString(msg.str[:open+1] + strings.Join(sorted, ", ") + "]")
}

// customResourcePath reports whether a request path is in a group of the corpus's CRDs.
func customResourcePath(p string) bool {
	parts := strings.Split(p, "/")
	return len(parts) > 2 && parts[1] == "apis" && strings.HasSuffix(parts[2], ".golden.example.com")
}

// managedFieldsOrder sorts managedFields entries by operation, manager and subresource.
func (w *walker) managedFieldsOrder(mf *jnode) {
	idx := make([]int, len(mf.vals))
	for i := range idx {
		idx[i] = i
	}
	key := func(e *jnode) string {
		return e.memberString("operation") + "\x00" + e.memberString("manager") + "\x00" + e.memberString("subresource")
	}
	sort.SliceStable(idx, func(a, b int) bool { return key(mf.vals[idx[a]]) < key(mf.vals[idx[b]]) })
	sorted := true
	for i, j := range idx {
		sorted = sorted && i == j
	}
	if sorted {
		return
	}
	var elems []string
	for _, j := range idx {
		elems = append(elems, string(render(w.src, mf.vals[j])))
	}
	mf.repl = []byte("[" + strings.Join(elems, ",") + "]")
}
