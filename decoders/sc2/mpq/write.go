package mpq

// Member is a file to write into an archive.
type Member struct {
	Name string
	Data []byte
}

// Write makes a new, well-formed archive of the members: the user data
// block first when userData is not nil (an SC2 replay's header), then the
// archive header of format version 1, which every MPQ reader reads, the
// members compressed with zlib in sectors of 512<<shift bytes (a sector
// that does not shrink is stored), a hash table twice the size of the
// names, the block table, and a (listfile) naming the members.
func Write(userData []byte, shift uint16, members []Member) []byte {
	files := make(map[string][]byte, len(members)+1)
	compress := make(map[string]bool, len(members)+1)
	names := make([]string, 0, len(members)+1)
	for _, m := range members {
		if _, dup := files[m.Name]; dup || m.Name == "(listfile)" {
			continue
		}
		files[m.Name], compress[m.Name] = m.Data, true
		names = append(names, m.Name)
	}
	var lf []byte
	for _, n := range names {
		lf = append(lf, n+"\r\n"...)
	}
	files["(listfile)"], compress["(listfile)"] = lf, true
	names = append(names, "(listfile)")
	s := spec{userData: userData, version: 1, shift: shift & 15}
	s.add(names, files, compress)
	return s.build()
}
