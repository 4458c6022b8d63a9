// Package bench measures envtest start-up against our binary; this file has the small statistics it reports.
package bench

import (
	"sort"
	"time"
)

// Percentile returns the p-th percentile (0 < p <= 100) of samples by the nearest-rank method, or 0 for no
// samples. samples is not modified.
func Percentile(samples []time.Duration, p float64) time.Duration {
	if len(samples) == 0 {
		return 0
	}
	s := append([]time.Duration(nil), samples...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	rank := int(p/100*float64(len(s)) + 0.999999999)
	if rank < 1 {
		rank = 1
	}
	if rank > len(s) {
		rank = len(s)
	}
	return s[rank-1]
}

// Millis is d in milliseconds, as a float for testing.B.ReportMetric.
func Millis(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
