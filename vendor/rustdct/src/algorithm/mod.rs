mod type1_convert_to_fft;
mod type1_naive;

pub mod type2and3_butterflies;
mod type2and3_convert_to_fft;
mod type2and3_naive;
mod type2and3_splitradix;

mod type4_convert_to_fft;
mod type4_convert_to_type3;
mod type4_naive;

mod type5_naive;
mod type6and7_convert_to_fft;
mod type6and7_naive;
mod type8_naive;

pub use self::type1_convert_to_fft::Dct1ConvertToFft;
pub use self::type1_convert_to_fft::Dst1ConvertToFft;
pub use self::type1_naive::Dct1Naive;
pub use self::type1_naive::Dst1Naive;

pub use self::type2and3_convert_to_fft::Type2And3ConvertToFft;
pub use self::type2and3_naive::Type2And3Naive;
pub use self::type2and3_splitradix::Type2And3SplitRadix;

pub use self::type4_convert_to_fft::Type4ConvertToFftOdd;
pub use self::type4_convert_to_type3::Type4ConvertToType3Even;
pub use self::type4_naive::Type4Naive;

pub use self::type5_naive::Dct5Naive;
pub use self::type5_naive::Dst5Naive;

pub use self::type6and7_convert_to_fft::Dst6And7ConvertToFft;
pub use self::type6and7_naive::Dct6And7Naive;
pub use self::type6and7_naive::Dst6And7Naive;

pub use self::type8_naive::Dct8Naive;
pub use self::type8_naive::Dst8Naive;
