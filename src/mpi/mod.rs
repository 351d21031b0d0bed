//! FFTW's MPI interface (`fftw_mpi_*`): distributed transforms whose arrays are cut in row
//! blocks across the processes of an MPI communicator. The local transforms are ordinary fftx
//! plans; the data moves between processes in global transposes (`MPI_Alltoallv`). MPI is
//! loaded at run time (`ffi`), so the library works, and plans ordinary FFTs, without it.

pub mod dist;
pub mod ffi;
pub mod plan;
pub mod transpose;
