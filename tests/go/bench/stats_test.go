// Tests of the percentile helper the benchmarks report with.
package bench

import (
	"testing"
	"time"
)

func TestPercentileNearestRank(t *testing.T) {
	ms := func(v ...int) []time.Duration {
		out := make([]time.Duration, len(v))
		for i, x := range v {
			out[i] = time.Duration(x) * time.Millisecond
		}
		return out
	}
	samples := ms(50, 10, 40, 20, 30, 100, 90, 80, 70, 60)
	for _, c := range []struct {
		p    float64
		want int
	}{{50, 50}, {90, 90}, {10, 10}, {100, 100}, {1, 10}} {
		if got := Percentile(samples, c.p); got != time.Duration(c.want)*time.Millisecond {
			t.Errorf("p%v = %v, want %vms", c.p, got, c.want)
		}
	}
	if samples[0] != 50*time.Millisecond {
		t.Errorf("Percentile sorted its input")
	}
	if Percentile(nil, 50) != 0 {
		t.Errorf("no samples should give 0")
	}
	if got := Percentile(ms(7), 90); got != 7*time.Millisecond {
		t.Errorf("one sample: got %v", got)
	}
	if Millis(1500*time.Microsecond) != 1.5 {
		t.Errorf("Millis(1.5ms) = %v", Millis(1500*time.Microsecond))
	}
}
