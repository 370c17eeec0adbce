package demo

// Scripts returns the showcase names in rotation order, for help text.
func Scripts() []string {
	names := make([]string, len(showcases))
	for i, sc := range showcases {
		names[i] = sc.name
	}
	return names
}
