//! The uniform structs the Rust side writes and the WGSL side reads, described field by field
//! so that a test can hold each against the shader's own declaration (parsed with naga): a
//! field added on one side only, or a padding that differs, fails there rather than on a GPU.

/// One Rust struct that a shader declares too.
#[derive(Clone, Debug)]
pub struct StructLayout {
    /// The shader, for messages.
    pub shader: &'static str,
    /// The struct's name in the WGSL.
    pub wgsl_struct: &'static str,
    /// Field names and byte offsets, in order.
    pub fields: Vec<(&'static str, usize)>,
    pub size: usize,
}

/// `fields!(T, a, b)`: the names and offsets of T's fields a and b.
macro_rules! fields {
    ($t:ty, $($f:ident),* $(,)?) => {
        vec![$((stringify!($f), std::mem::offset_of!($t, $f))),*]
    };
}
pub(crate) use fields;
