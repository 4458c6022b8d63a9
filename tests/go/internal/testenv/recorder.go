package testenv

import (
	"net/http"
	"sync"
)

// Request is what a Recorder saw of one request and its answer.
type Request struct {
	Method      string
	URL         string // path and query, as sent
	Path        string
	Query       string
	ContentType string
	Accept      string
	// Of the answer; zero when the transport returned no response.
	ResponseContentType string
	Status              int
}

// Recorder keeps every request that went through the transports it wraps. The zero value is ready.
type Recorder struct {
	mu       sync.Mutex
	requests []Request
}

// Wrap returns rt recording each round trip; it fits rest.Config.Wrap.
func (r *Recorder) Wrap(rt http.RoundTripper) http.RoundTripper {
	return roundTripperFunc(func(req *http.Request) (*http.Response, error) {
		resp, err := rt.RoundTrip(req)
		rec := Request{
			Method:      req.Method,
			URL:         req.URL.String(),
			Path:        req.URL.Path,
			Query:       req.URL.RawQuery,
			ContentType: req.Header.Get("Content-Type"),
			Accept:      req.Header.Get("Accept"),
		}
		if resp != nil {
			rec.Status = resp.StatusCode
			rec.ResponseContentType = resp.Header.Get("Content-Type")
		}
		r.mu.Lock()
		r.requests = append(r.requests, rec)
		r.mu.Unlock()
		return resp, err
	})
}

// All is a copy of the requests recorded so far, in the order they were answered.
func (r *Recorder) All() []Request {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]Request(nil), r.requests...)
}

type roundTripperFunc func(*http.Request) (*http.Response, error)

func (f roundTripperFunc) RoundTrip(req *http.Request) (*http.Response, error) { return f(req) }
