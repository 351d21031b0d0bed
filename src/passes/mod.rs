//! Pure functions over problems (and, with FFTX, plan graphs): each unit-tested on its own.

pub mod distribute;
pub mod fmm;
pub mod normalize;
pub mod out_of_card;
pub mod place;
pub mod resident;

/// The device memory a program may use: `bytes` on device `device`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    pub device: usize,
    pub bytes: usize,
}
