// v1 is the conversion hub: every other version converts to and from it.
package v1

// Hub marks v1 as the version the spokes convert through.
func (*WebApp) Hub() {}
