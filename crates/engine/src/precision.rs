//! The GPU shaders' arithmetic precision, a setting every build knows (`--precision`), with
//! or without the `gpu` feature.

/// Arithmetic precision of the shaders.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Precision {
    /// Fast everywhere; about 1e-6 relative accuracy (docs/engine/backends.md, Precision, has the measured errors).
    #[default]
    F32,
    /// Needs `SHADER_F64`; agrees with the CPU backend to about 1e-12.
    F64,
}

impl Precision {
    /// Bytes per real number on the device.
    pub fn bytes(self) -> usize {
        match self {
            Self::F32 => 4,
            Self::F64 => 8,
        }
    }

    /// `f32` or `f64`; `None` for any other word.
    pub fn parse(s: &str) -> Option<Self> {
        match s {
            "f32" => Some(Self::F32),
            "f64" => Some(Self::F64),
            _ => None,
        }
    }
}
