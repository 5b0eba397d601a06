//go:build unix && !linux

package actions

// alive reports whether process pid is still running. These systems have
// no /proc to read its command line from: a number taken since by
// another process counts too (rewind then hands the replay to nobody,
// and the next watch, once that process ends, starts a Dolphin).
func alive(pid int, _, _ string) bool { return signalZero(pid) }
