package tavla_test

// The conformance scenarios of clients/conformance, run through this client against a live
// server (clients/conformance/README.md has the format and the matching rules).

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/tavla-engine/tavla-engine/clients/go/tavla"
	tavlav1 "github.com/tavla-engine/tavla-engine/clients/go/tavlav1"
)

const repoRoot = "../../.."

// liveTarget is the server every test of this package uses: TAVLA_TARGET when set, else one
// started by TestMain through clients/conformance/live_server.py.
var liveTarget string

func TestMain(m *testing.M) {
	liveTarget = os.Getenv("TAVLA_TARGET")
	var stop func()
	if liveTarget == "" {
		var err error
		liveTarget, stop, err = startServer()
		if err != nil {
			fmt.Fprintln(os.Stderr, "cannot start the live server:", err)
			os.Exit(1)
		}
	}
	code := m.Run()
	if stop != nil {
		stop()
	}
	os.Exit(code)
}

// startServer runs live_server.py (TAVLA_SERVER_PYTHON, else the Makefile's .venv-test python)
// and waits for its READY line; closing its stdin stops the server with SIGTERM.
func startServer() (string, func(), error) {
	python := os.Getenv("TAVLA_SERVER_PYTHON")
	if python == "" {
		python = filepath.Join(repoRoot, ".venv-test", "bin", "python")
	}
	cmd := exec.Command(python, filepath.Join(repoRoot, "clients", "conformance", "live_server.py"))
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return "", nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return "", nil, err
	}
	if err := cmd.Start(); err != nil {
		return "", nil, fmt.Errorf("%s: %w (run `make .venv-test/.installed` or set TAVLA_SERVER_PYTHON)", python, err)
	}
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil || !strings.HasPrefix(line, "READY ") {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		return "", nil, fmt.Errorf("no READY line from live_server.py (%q, %v)", line, err)
	}
	stop := func() {
		_ = stdin.Close()
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case <-done:
		case <-time.After(30 * time.Second):
			_ = cmd.Process.Kill()
		}
	}
	return strings.TrimSpace(strings.TrimPrefix(line, "READY ")), stop, nil
}

type scenario struct {
	Name     string          `json:"name"`
	Service  string          `json:"service"`
	RPC      string          `json:"rpc"`
	Note     string          `json:"note"`
	Request  json.RawMessage `json:"request"`
	Response any             `json:"response"`
	Error    *struct {
		Code     string            `json:"code"`
		Reason   *string           `json:"reason"`
		Domain   *string           `json:"domain"`
		Metadata map[string]string `json:"metadata"`
		Field    *string           `json:"field"`
	} `json:"error"`
}

func loadScenarios(t *testing.T) []scenario {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(repoRoot, "clients", "conformance", "scenarios", "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no scenario files (%v)", err)
	}
	sort.Strings(files)
	var all []scenario
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var file struct {
			Scenarios []scenario `json:"scenarios"`
		}
		if err := json.Unmarshal(data, &file); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		all = append(all, file.Scenarios...)
	}
	return all
}

func TestConformance(t *testing.T) {
	client, err := tavla.NewClient(liveTarget)
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	for _, sc := range loadScenarios(t) {
		t.Run(sc.Name, func(t *testing.T) {
			// The RPC is called by name on the client's stub of its service (Client.Rules for
			// RulesService, ...).
			stub := reflect.ValueOf(client).Elem().FieldByName(strings.TrimSuffix(sc.Service, "Service"))
			if !stub.IsValid() || !strings.HasSuffix(sc.Service, "Service") {
				t.Fatalf("the client has no stub of %q", sc.Service)
			}
			method := stub.MethodByName(sc.RPC)
			if !method.IsValid() {
				t.Fatalf("%s has no method %s", sc.Service, sc.RPC)
			}
			req := reflect.New(method.Type().In(1).Elem()).Interface().(proto.Message)
			if err := protojson.Unmarshal(sc.Request, req); err != nil {
				t.Fatalf("request: %v", err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			out := method.Call([]reflect.Value{reflect.ValueOf(ctx), reflect.ValueOf(req)})
			callErr, _ := out[1].Interface().(error)
			if sc.Error != nil {
				if callErr == nil {
					t.Fatalf("expected %s, got OK", sc.Error.Code)
				}
				e, ok := tavla.AsError(callErr)
				if !ok {
					t.Fatalf("not a gRPC status: %v", callErr)
				}
				checkError(t, sc, e)
				return
			}
			if callErr != nil {
				t.Fatalf("expected OK, got %v", callErr)
			}
			resp := out[0].Interface().(proto.Message)
			data, err := protojson.MarshalOptions{UseProtoNames: true}.Marshal(resp)
			if err != nil {
				t.Fatal(err)
			}
			var actual any
			if err := json.Unmarshal(data, &actual); err != nil {
				t.Fatal(err)
			}
			for _, problem := range match(sc.Response, actual, "$") {
				t.Error(problem)
			}
			checkPositionIDs(t, resp.ProtoReflect())
		})
	}
}

func checkError(t *testing.T, sc scenario, e *tavla.Error) {
	t.Helper()
	want := sc.Error
	if got := tavla.CodeName(e.Code); got != want.Code {
		t.Errorf("code: expected %s, got %s (%s)", want.Code, got, e.Message)
	}
	if want.Reason != nil && e.Reason != *want.Reason {
		t.Errorf("reason: expected %q, got %q (%s)", *want.Reason, e.Reason, e.Message)
	}
	if want.Domain != nil && e.Domain != *want.Domain {
		t.Errorf("domain: expected %q, got %q", *want.Domain, e.Domain)
	}
	for k, v := range want.Metadata {
		if e.Metadata[k] != v {
			t.Errorf("metadata.%s: expected %q, got %q", k, v, e.Metadata[k])
		}
	}
	if want.Field != nil {
		found := false
		for _, f := range e.Fields {
			found = found || f == *want.Field
		}
		if !found {
			t.Errorf("field: expected %q among %v (%s)", *want.Field, e.Fields, e.Message)
		}
	}
}

// checkPositionIDs decodes every position the server returned with the client's own Position ID
// helper, for the variant's checker count (the board's: hypergammon 3, else 15), and compares the
// board: the helper and the server agree on every position seen.
func checkPositionIDs(t *testing.T, m protoreflect.Message) {
	t.Helper()
	if p, ok := m.Interface().(*tavlav1.Position); ok && p.GetIds().GetPositionId() != "" && p.GetBoard() != nil {
		id := p.GetIds().GetPositionId()
		white := p.GetBoard().GetWhite()
		count := white.GetBar() + white.GetBorneOff()
		for _, n := range white.GetPoints() {
			count += n
		}
		ids := tavla.PositionIDs{Checkers: count}
		decoded, err := ids.PositionFromID(id, p.GetOnRoll())
		want := proto.Clone(p).(*tavlav1.Position)
		want.Ids = &tavlav1.PositionIds{PositionId: id} // the helper gives the Position ID only
		if err != nil {
			t.Errorf("position ID %s: %v", id, err)
		} else if !proto.Equal(decoded, want) {
			t.Errorf("position ID %s decodes to %v, server says %v", id, decoded, p)
		}
		board := &tavlav1.Position{OnRoll: p.GetOnRoll(), Checkers: &tavlav1.Position_Board{Board: p.GetBoard()}}
		if got, err := ids.PositionID(board); err != nil || got != id {
			t.Errorf("board encodes to %q (%v), server says %s", got, err, id)
		}
	}
	m.Range(func(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
		switch {
		case fd.Message() == nil || fd.IsMap():
		case fd.IsList():
			for i := 0; i < v.List().Len(); i++ {
				checkPositionIDs(t, v.List().Get(i).Message())
			}
		default:
			checkPositionIDs(t, v.Message())
		}
		return true
	})
}

const tolerance = 1e-9

func isDefault(v any) bool {
	switch v := v.(type) {
	case nil:
		return true
	case bool:
		return !v
	case float64:
		return v == 0
	case string:
		return v == "" || strings.HasSuffix(v, "_UNSPECIFIED")
	case []any:
		return len(v) == 0
	case map[string]any:
		return len(v) == 0
	}
	return false
}

// match reports where actual (a response as proto JSON) fails expected; none when it matches.
func match(expected, actual any, path string) []string {
	switch want := expected.(type) {
	case map[string]any:
		if hasOperator(want) {
			return matchOperators(want, actual, path)
		}
		if actual == nil {
			actual = map[string]any{}
		}
		got, ok := actual.(map[string]any)
		if !ok {
			return []string{fmt.Sprintf("%s: expected an object, got %v", path, actual)}
		}
		var problems []string
		keys := make([]string, 0, len(want))
		for k := range want {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			problems = append(problems, match(want[k], got[k], path+"."+k)...)
		}
		return problems
	case []any:
		if actual == nil {
			actual = []any{}
		}
		got, ok := actual.([]any)
		if !ok || len(got) != len(want) {
			return []string{fmt.Sprintf("%s: expected %v, got %v", path, want, actual)}
		}
		var problems []string
		for i := range want {
			problems = append(problems, match(want[i], got[i], fmt.Sprintf("%s[%d]", path, i))...)
		}
		return problems
	}
	if actual == nil && isDefault(expected) {
		return nil
	}
	if w, ok := expected.(float64); ok {
		if a, ok := actual.(float64); ok && math.Abs(a-w) <= tolerance*math.Max(1, math.Abs(w)) {
			return nil
		}
		return []string{fmt.Sprintf("%s: expected %v, got %v", path, expected, actual)}
	}
	if expected != actual {
		return []string{fmt.Sprintf("%s: expected %v, got %v", path, expected, actual)}
	}
	return nil
}

func hasOperator(m map[string]any) bool {
	for k := range m {
		if strings.HasPrefix(k, "$") {
			return true
		}
	}
	return false
}

func matchOperators(ops map[string]any, actual any, path string) []string {
	var problems []string
	items, _ := actual.([]any)
	for op, arg := range ops {
		switch op {
		case "$absent":
			if arg == true && !isDefault(actual) {
				problems = append(problems, fmt.Sprintf("%s: expected absent, got %v", path, actual))
			}
		case "$len":
			if _, isList := actual.([]any); (actual != nil && !isList) || float64(len(items)) != arg.(float64) {
				problems = append(problems, fmt.Sprintf("%s: expected %v elements, got %d", path, arg, len(items)))
			}
		case "$regex":
			text, _ := actual.(string)
			if _, isString := actual.(string); (actual != nil && !isString) || !regexp.MustCompile(arg.(string)).MatchString(text) {
				problems = append(problems, fmt.Sprintf("%s: %v does not match /%v/", path, actual, arg))
			}
		case "$contains":
			for i, want := range arg.([]any) {
				found := false
				for _, item := range items {
					if len(match(want, item, path)) == 0 {
						found = true
						break
					}
				}
				if !found {
					problems = append(problems, fmt.Sprintf("%s: no element matches $contains[%d] %v", path, i, want))
				}
			}
		default:
			problems = append(problems, fmt.Sprintf("%s: unknown operator %s", path, op))
		}
	}
	return problems
}

func TestMatcherRules(t *testing.T) {
	var actual any
	_ = json.Unmarshal([]byte(`{"moves": [{"notation": "24/23 13/8", "result": {"position_id": "x"}}, {"notation": "13/7"}], "dice_used": 2, "win": 0.30000000000000004}`), &actual)
	ok := func(expected string) bool {
		var e any
		if err := json.Unmarshal([]byte(expected), &e); err != nil {
			t.Fatal(err)
		}
		return len(match(e, actual, "$")) == 0
	}
	for expected, want := range map[string]bool{
		`{"moves": {"$len": 2, "$contains": [{"notation": "13/7"}]}}`: true,
		`{"moves": {"$len": 3}}`:                                                        false,
		`{"moves": {"$contains": [{"notation": "8/2"}]}}`:                               false,
		`{"dice_used": 2, "forced": false, "result": {"$absent": true}, "win": 0.3}`:    true,
		`{"dice_used": 4}`:                                                              false,
		`{"moves": [{"notation": "24/23 13/8"}]}`:                                       false,
		`{"checker_moves": [], "notation": "", "on_roll": "SIDE_UNSPECIFIED"}`:          true,
		`{"moves": [{"notation": {"$regex": "^24/"}}, {"notation": {"$regex": "7$"}}]}`: true,
		`{"moves": {"$contains": [{"notation": {"$regex": "^8/"}}]}}`:                   false,
	} {
		if ok(expected) != want {
			t.Errorf("%s: matched=%v, want %v", expected, !want, want)
		}
	}
}
