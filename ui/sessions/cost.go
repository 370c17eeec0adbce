package sessions

import (
	"encoding/json"

	"runnel/session/models"
	"runnel/session/store"
	"runnel/stream"
)

// sessionCost prices a session's stored turns, each as the model the
// server reported for it (else the session's model), on the service tier
// it ran on (models.TierFactor). ok is false when a
// turn with usage has no price, or nothing was counted: then there is no
// figure (a partial sum would be a guess).
func sessionCost(db *store.DB, t models.Table, s store.SessionInfo) (float64, bool) {
	usages, err := db.TurnUsages(s.ID)
	if err != nil {
		return 0, false
	}
	var total float64
	counted := false
	for _, raw := range usages {
		var u struct {
			stream.Usage
			Model       string `json:"model"`
			ServiceTier string `json:"service_tier"`
		}
		if json.Unmarshal(raw, &u) != nil {
			return 0, false
		}
		use := models.FromWire(&u.Usage)
		if use == (models.Usage{}) {
			continue
		}
		name := u.Model
		if name == "" {
			name = s.Model
		}
		info, ok := t.Lookup(name)
		d, priced := info.TierCost(use, u.ServiceTier)
		if !ok || !priced {
			return 0, false
		}
		total += d
		counted = true
	}
	return total, counted
}

// costCell is the table's COST cell: "$0.0045", "-" when unknown.
func costCell(d float64, ok bool) string {
	if !ok {
		return "-"
	}
	return models.FormatCost(d)
}
