package block

// Err returns the first error writing the output, if any.
func (p *Printer) Err() error { return p.out.err }

// settledCut is a fresh cutScanner's cut: the end of the longest run of
// whole top-level markdown blocks in src[from:], or from when there is none.
func settledCut(src string, from int) int {
	var sc cutScanner
	return sc.cut(src, from)
}
