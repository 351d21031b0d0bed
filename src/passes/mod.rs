//! Pure functions over problems (and, with FFTX, plan graphs): each unit-tested on its own.

pub mod distribute;
pub mod fmm;
pub mod normalize;
pub mod out_of_card;
pub mod resident;
