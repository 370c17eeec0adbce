//go:build !unix

package regfile

// nonBlock: systems without FIFOs in the file system open without it.
const nonBlock = 0
