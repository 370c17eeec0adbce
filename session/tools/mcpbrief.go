package tools

import "strconv"

// Brief is Summary in few cells, for a status line short of room: "mcp 13"
// (the tools of the servers that run), "mcp 13 ⚠1" when a server is not
// running, "mcp …" while they start; "" with no servers.
func (m *Manager) Brief() string {
	if m == nil || len(m.servers) == 0 {
		return ""
	}
	if !m.started() {
		return "mcp …"
	}
	failed := 0
	for _, s := range m.servers {
		s.mu.Lock()
		if s.conn == nil && !s.closed {
			failed++
		}
		s.mu.Unlock()
	}
	line := "mcp " + strconv.Itoa(len(m.tools))
	if failed > 0 {
		line += " ⚠" + strconv.Itoa(failed)
	}
	return line
}
