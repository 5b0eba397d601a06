//go:build !windows

package folders

// documentsFolder is only Windows' to say.
func documentsFolder() string { return "" }
