package sessions

import (
	"encoding/json"
	"math"
	"path/filepath"
	"testing"

	"runnel/session/models"
	"runnel/session/store"
	"runnel/stream"
)

// A stored turn is priced on the service tier it ran on: priority twice
// the standard prices.
func TestSessionCostOnServiceTier(t *testing.T) {
	db, err := store.Open(filepath.Join(t.TempDir(), "runnel.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	cost := func(tier string) float64 {
		sid, err := db.CreateSession(store.NewSession{Title: "t", Settings: json.RawMessage(`{"model":"gpt-5"}`)})
		if err != nil {
			t.Fatal(err)
		}
		tid, err := db.BeginTurn(sid, "", []json.RawMessage{stream.UserText("hi")}, "")
		if err != nil {
			t.Fatal(err)
		}
		usage := `{"input_tokens":1000000,"output_tokens":100000,"total_tokens":1100000,"model":"gpt-5","service_tier":"` + tier + `"}`
		if err := db.FinishTurn(tid, store.TurnEnd{Status: store.StatusCompleted, ResponseIDs: []string{"r"}, Usage: json.RawMessage(usage)}); err != nil {
			t.Fatal(err)
		}
		d, ok := sessionCost(db, models.NewTable(nil, ""), store.SessionInfo{ID: sid, Model: "gpt-5"})
		if !ok {
			t.Fatalf("%q: no cost", tier)
		}
		return d
	}
	std, fast, flex := cost("default"), cost("priority"), cost("flex")
	if math.Abs(fast-2*std) > 1e-9 || math.Abs(flex-std/2) > 1e-9 || std <= 0 {
		t.Fatalf("default %v, priority %v, flex %v", std, fast, flex)
	}
}
