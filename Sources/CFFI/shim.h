#include <ffi.h>

/* Swift 6 rejects libffi's mutable globals (ffi_type_double, ...) as shared mutable state; these
 * accessors hand out their addresses instead. FFI_DEFAULT_ABI is an enum alias that does not
 * always import, so it gets one too. */
static inline ffi_type *cffi_type_void(void) { return &ffi_type_void; }
static inline ffi_type *cffi_type_uint8(void) { return &ffi_type_uint8; }
static inline ffi_type *cffi_type_sint32(void) { return &ffi_type_sint32; }
static inline ffi_type *cffi_type_uint32(void) { return &ffi_type_uint32; }
static inline ffi_type *cffi_type_sint64(void) { return &ffi_type_sint64; }
static inline ffi_type *cffi_type_uint64(void) { return &ffi_type_uint64; }
static inline ffi_type *cffi_type_float(void) { return &ffi_type_float; }
static inline ffi_type *cffi_type_double(void) { return &ffi_type_double; }
static inline ffi_type *cffi_type_pointer(void) { return &ffi_type_pointer; }
static inline ffi_abi cffi_default_abi(void) { return FFI_DEFAULT_ABI; }
