// Kubernetes protobuf on the wire: encoding corpus objects for request bodies, and decoding
// answers (objects, lists, Status, Tables, watch frames) into a JSON form that the normalisation
// rules can compare, plus a check that the server's bytes are exactly what Go's marshaller writes
// for the same object (field order, zero values written or not).
package golden

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"

	apidiscoveryv2 "k8s.io/api/apidiscovery/v2"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	metav1beta1 "k8s.io/apimachinery/pkg/apis/meta/v1beta1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	"k8s.io/apimachinery/pkg/runtime/serializer/protobuf"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
)

var (
	scheme       = runtime.NewScheme()
	codecs       serializer.CodecFactory
	pbSerializer *protobuf.Serializer
)

func init() {
	for _, add := range []func(*runtime.Scheme) error{
		clientgoscheme.AddToScheme, apiextensionsv1.AddToScheme, apidiscoveryv2.AddToScheme,
		metav1.AddMetaToScheme, metav1beta1.AddMetaToScheme,
	} {
		if err := add(scheme); err != nil {
			panic(err)
		}
	}
	metav1.AddToGroupVersion(scheme, metav1.SchemeGroupVersion)
	codecs = serializer.NewCodecFactory(scheme)
	pbSerializer = protobuf.NewSerializer(scheme, scheme)
}

// encodeProtobuf turns a JSON object with apiVersion and kind into Kubernetes protobuf.
func encodeProtobuf(jsonBody []byte) ([]byte, error) {
	obj, _, err := codecs.UniversalDeserializer().Decode(jsonBody, nil, nil)
	if err != nil {
		return nil, fmt.Errorf("decoding the corpus object: %w", err)
	}
	var buf bytes.Buffer
	if err := pbSerializer.Encode(obj, &buf); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// ProtoBody is the recorded form of a protobuf body.
type ProtoBody struct {
	// Envelope is the apiVersion and kind of the runtime.Unknown wrapper.
	Envelope string `json:"envelope"`
	// Canonical: re-encoding the decoded object with Go's marshaller gives the server's bytes.
	Canonical bool `json:"canonical"`
	// Decoded is the object as JSON (Go's field order), normalised; compared.
	Decoded json.RawMessage `json:"decoded,omitempty"`
	// Error says why the body could not be decoded; compared.
	Error string `json:"error,omitempty"`
	// Raw is the server's bytes; recorded for reading, not compared (they hold uids and times).
	Raw string `json:"raw"`
}

var protoMagic = []byte("k8s\x00")

// decodeProtobuf decodes one protobuf body (an object, or a watch frame holding a WatchEvent).
func decodeProtobuf(raw []byte) (decoded []byte, envelope string, canonical bool, err error) {
	if !bytes.HasPrefix(raw, protoMagic) {
		return nil, "", false, fmt.Errorf("no k8s protobuf magic")
	}
	var unk runtime.Unknown
	if err := unk.Unmarshal(raw[len(protoMagic):]); err != nil {
		return nil, "", false, fmt.Errorf("bad envelope: %v", err)
	}
	envelope = unk.APIVersion + "/" + unk.Kind
	obj, _, err := pbSerializer.Decode(raw, nil, nil)
	if err != nil {
		return nil, envelope, false, fmt.Errorf("decoding: %v", err)
	}
	obj.GetObjectKind().SetGroupVersionKind(unk.GroupVersionKind())
	var again bytes.Buffer
	if err := pbSerializer.Encode(obj, &again); err == nil {
		canonical = bytes.Equal(again.Bytes(), raw)
	}
	if ev, ok := obj.(*metav1.WatchEvent); ok {
		inner, innerEnv, innerCanon, ierr := decodeProtobuf(ev.Object.Raw)
		out := map[string]any{"type": ev.Type, "objectEnvelope": innerEnv, "objectCanonical": innerCanon}
		if ierr != nil {
			out["objectError"] = ierr.Error()
		} else {
			out["object"] = json.RawMessage(inner)
		}
		b, err := marshalNoEscape(out)
		return b, envelope, canonical, err
	}
	b, err := marshalNoEscape(obj)
	return b, envelope, canonical, err
}

func marshalNoEscape(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// protoRecord decodes and normalises a protobuf body for the record.
func protoRecord(raw []byte, norm *Normaliser, ctx BodyContext) *ProtoBody {
	pb := &ProtoBody{Raw: base64.StdEncoding.EncodeToString(raw)}
	decoded, env, canonical, err := decodeProtobuf(raw)
	pb.Envelope, pb.Canonical = env, canonical
	if err != nil {
		pb.Error = err.Error()
		return pb
	}
	pb.Decoded = norm.JSON(decoded, ctx)
	return pb
}

// protoWatchRecord decodes one frame of a protobuf watch stream: a bare metav1.WatchEvent (no
// envelope of its own) whose object is an enveloped protobuf object. Canonical covers both.
func protoWatchRecord(frame []byte, norm *Normaliser, ctx BodyContext) *ProtoBody {
	pb := &ProtoBody{Raw: base64.StdEncoding.EncodeToString(frame)}
	var ev metav1.WatchEvent
	if err := ev.Unmarshal(frame); err != nil {
		pb.Error = "watch frame: " + err.Error()
		return pb
	}
	again, err := ev.Marshal()
	frameCanonical := err == nil && bytes.Equal(again, frame)
	inner, env, innerCanonical, err := decodeProtobuf(ev.Object.Raw)
	pb.Envelope = "WatchEvent frame, object " + env
	pb.Canonical = frameCanonical && innerCanonical
	if err != nil {
		pb.Error = "watch frame object: " + err.Error()
		return pb
	}
	out, err := marshalNoEscape(struct {
		Type   string          `json:"type"`
		Object json.RawMessage `json:"object"`
	}{ev.Type, inner})
	if err != nil {
		pb.Error = err.Error()
		return pb
	}
	pb.Decoded = norm.JSON(out, ctx)
	return pb
}
