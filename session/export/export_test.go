package export

// Test-only access to the headings table.
var (
	Heading  = heading
	Headings = headings
)
