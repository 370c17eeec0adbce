package sessions

import (
	"testing"
	"time"
)

func TestSessionsAgo(t *testing.T) {
	now := time.Date(2025, 6, 10, 12, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		d    time.Duration
		want string
	}{
		{-time.Hour, "just now"}, {30 * time.Second, "just now"}, {3 * time.Minute, "3m ago"},
		{5*time.Hour + 59*time.Minute, "5h ago"}, {49 * time.Hour, "2d ago"},
	} {
		if got := ago(now.Add(-c.d), now); got != c.want {
			t.Errorf("ago(%s) = %q, want %q", c.d, got, c.want)
		}
	}
	old := now.Add(-90 * 24 * time.Hour)
	if got := ago(old, now); got != old.Local().Format("2006-01-02") {
		t.Errorf("ago(90 days) = %q", got)
	}
}
