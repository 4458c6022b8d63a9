// TestGolden: one subtest per corpus file. With -record (or GOLDEN_RECORD=1) it writes the
// normalised answers of the server in KUBEBUILDER_ASSETS (the real kube-apiserver) to
// testdata/golden/recorded; otherwise it replays the file and compares every step byte for byte
// with the recording, forgiving only the steps listed in testdata/golden/known-mismatches.yaml.
package golden

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

var recordFlag = flag.Bool("record", false, "record the answers of the server in KUBEBUILDER_ASSETS into testdata/golden/recorded")

const repoRoot = "../../.."

var (
	corpusDir   = filepath.Join(repoRoot, "testdata", "golden", "corpus")
	recordedDir = filepath.Join(repoRoot, "testdata", "golden", "recorded")
	knownPath   = filepath.Join(repoRoot, "testdata", "golden", "known-mismatches.yaml")
)

func TestGolden(t *testing.T) {
	record := *recordFlag || os.Getenv("GOLDEN_RECORD") == "1"
	// GOLDEN_SELFCHECK=1 replays against the recording server itself: every step must match
	// (the known mismatches are not consulted). It shows whether the recording is stable.
	selfCheck := os.Getenv("GOLDEN_SELFCHECK") == "1"
	files, err := LoadCorpus(corpusDir)
	if err != nil {
		t.Fatal(err)
	}
	known, err := LoadKnown(knownPath)
	if err != nil {
		t.Fatal(err)
	}
	assets, err := AssetsDir(repoRoot)
	if err != nil {
		t.Fatal(err)
	}
	if record && os.Getenv("GOLDEN_RECORD_ANY") != "1" {
		target, _ := filepath.EvalSymlinks(filepath.Join(assets, "kube-apiserver"))
		if strings.Contains(filepath.Base(target), "lite") {
			t.Fatalf("refusing to record from %s: the recording must come from the real kube-apiserver (KUBEBUILDER_ASSETS=build/oracle)", target)
		}
	}
	names := map[string]bool{}
	for _, f := range files {
		names[f.Name] = true
	}
	for key := range known {
		if !names[strings.SplitN(key, "/", 2)[0]] {
			t.Errorf("known-mismatches.yaml lists %s, but there is no such corpus file", key)
		}
	}
	for _, f := range files {
		t.Run(f.Name, func(t *testing.T) {
			runCorpusFile(t, f, assets, record, selfCheck, known)
		})
	}
}

func runCorpusFile(t *testing.T, f *CorpusFile, assets string, record, selfCheck bool, known map[string]KnownMismatch) {
	var rec *RecordedFile
	if !record {
		var err error
		if rec, err = readRecorded(filepath.Join(recordedDir, f.Name+".json")); err != nil {
			t.Fatalf("no recording for %s (record it from the real kube-apiserver with make oracle-record): %v", f.Name, err)
		}
	}
	start := time.Now()
	srv, err := StartServer(assets, f.Users, f.APIServerFlags)
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if err := srv.Stop(); err != nil {
			t.Errorf("stopping the control plane: %v", err)
		}
	}()
	t.Logf("%s: server %s at %s, started in %s", f.Name, srv.Version, srv.HostPort, time.Since(start).Round(time.Millisecond))

	norm := NewNormaliser(srv.HostPort)
	vars := map[string]string{}
	var got []Exchange
	for i := range f.Steps {
		s := &f.Steps[i]
		a, missing, runErr := srv.Run(s, vars)
		if len(missing) > 0 {
			t.Logf("step %s: variables %v were not captured; sent as empty", s.Name, missing)
		}
		if failed := capture(s, a, vars); len(failed) > 0 {
			t.Logf("step %s: could not capture %v", s.Name, failed)
		}
		if !s.Recorded() {
			if a == nil || a.Status >= 400 {
				status, body := 0, ""
				if a != nil {
					status, body = a.Status, string(a.Body[:min(len(a.Body), 2000)])
				}
				t.Logf("set-up step %s answered %d (%v): %s", s.Name, status, runErr, body)
			}
			continue
		}
		got = append(got, makeExchange(s, a, runErr, norm))
	}
	if dir := os.Getenv("GOLDEN_REPLAY_DIR"); dir != "" && !record {
		if err := os.MkdirAll(dir, 0o755); err == nil {
			_ = writeRecorded(filepath.Join(dir, f.Name+".json"), &RecordedFile{File: f.Name, Server: srv.Version, Steps: got})
		}
	}
	if record {
		rf := &RecordedFile{
			File:   f.Name,
			Server: srv.Version,
			Note:   "recorded from the real kube-apiserver (make oracle-record); bodies are normalised by the rules in tests/go/golden/normalise.go",
			Steps:  got,
		}
		if err := writeRecorded(filepath.Join(recordedDir, f.Name+".json"), rf); err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: recorded %d exchanges in %s", f.Name, len(got), time.Since(start).Round(time.Millisecond))
		return
	}
	compareFile(t, f.Name, rec, got, selfCheck, known)
	t.Logf("%s: replayed %d exchanges in %s", f.Name, len(got), time.Since(start).Round(time.Millisecond))
}

func compareFile(t *testing.T, file string, rec *RecordedFile, got []Exchange, selfCheck bool, known map[string]KnownMismatch) {
	want := map[string]*Exchange{}
	var wantOrder []string
	for i := range rec.Steps {
		want[rec.Steps[i].Name] = &rec.Steps[i]
		wantOrder = append(wantOrder, rec.Steps[i].Name)
	}
	var gotOrder []string
	for _, g := range got {
		gotOrder = append(gotOrder, g.Name)
	}
	if strings.Join(wantOrder, ",") != strings.Join(gotOrder, ",") {
		t.Errorf("the corpus's recorded steps differ from the recording (re-record with make oracle-record):\n recorded: %v\n corpus:   %v", wantOrder, gotOrder)
	}
	matched, knownCount := 0, 0
	for i := range got {
		g := &got[i]
		key := file + "/" + g.Name
		w, ok := want[g.Name]
		if !ok {
			continue
		}
		k, isKnown := known[key]
		if looseMode() {
			lw, lg := looseExchange(w), looseExchange(g)
			if sameExchange(lw, lg) {
				matched++
			} else {
				t.Logf("loose mismatch %s (%s; listed: %v %s):\n%s", key, g.Request, k.Issues, k.Cause, diffExchange(lw, lg))
			}
			continue
		}
		same := sameExchange(w, g)
		switch {
		case same && isKnown && !selfCheck:
			t.Errorf("%s matches kube-apiserver now: remove from known-mismatches (issues %v: %s)", key, k.Issues, k.Cause)
		case same:
			matched++
		case isKnown && !selfCheck:
			knownCount++
			if os.Getenv("GOLDEN_VERBOSE") == "1" {
				t.Logf("known mismatch %s (issues %v: %s):\n%s", key, k.Issues, k.Cause, diffExchange(w, g))
			} else {
				t.Logf("known mismatch %s (issues %v: %s)", key, k.Issues, k.Cause)
			}
		default:
			t.Errorf("mismatch %s (%s):\n%s", key, g.Request, diffExchange(w, g))
		}
	}
	if !selfCheck {
		for key := range known {
			if strings.HasPrefix(key, file+"/") {
				if _, ok := want[strings.TrimPrefix(key, file+"/")]; !ok {
					t.Errorf("known-mismatches.yaml lists %s, which is not a recorded step", key)
				}
			}
		}
	}
	if looseMode() {
		t.Logf("%s: %d exchanges, %d match loosely (GOLDEN_LOOSE: encoding differences of issue 24 left out)", file, len(got), matched)
		return
	}
	t.Logf("%s: %d exchanges, %d match, %d known mismatches, %d unknown", file, len(got), matched, knownCount, len(got)-matched-knownCount)
}
