package library

import "syscall"

// lowPriority gives the calling thread the lowest scheduling priority
// (nice 19). Linux keeps a nice value per thread; the caller has locked
// its goroutine to the thread.
func lowPriority() {
	syscall.Setpriority(syscall.PRIO_PROCESS, syscall.Gettid(), 19)
}
