! FFTW's MPI Fortran 2003 interface (include 'fftw3-mpi.f03', communicators as Fortran handles):
! a distributed 2-D transform in place, forward then backward, must return the input times
! L*M; the forward transform's (1,1) element must be the sum of every process's input; the
! local sizes must be FFTW's default blocks (ceil(M/P) rows per process).
program mpi_f03
  use, intrinsic :: iso_c_binding
  use mpi
  implicit none
  include 'fftw3-mpi.f03'
  integer(C_INTPTR_T), parameter :: L = 12, M = 10
  type(C_PTR) :: fwd, bwd, cdata
  complex(C_DOUBLE_COMPLEX), pointer :: a(:,:)
  complex(C_DOUBLE_COMPLEX), allocatable :: orig(:,:)
  integer(C_INTPTR_T) :: i, j, alloc_local, local_M, offset, block, lm_f, off_f
  integer :: ierr, rank, np
  real(C_DOUBLE) :: err, gerr
  complex(C_DOUBLE_COMPLEX) :: mysum, total, dc

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, np, ierr)
  call fftw_mpi_init()
  ! Fortran's dimensions are C's reversed: the distributed one (M) is the last.
  alloc_local = fftw_mpi_local_size_2d(M, L, MPI_COMM_WORLD, local_M, offset)
  block = (M + np - 1) / np
  if (local_M /= max(0_C_INTPTR_T, min(block, M - rank * block)) .or. &
      (local_M > 0 .and. offset /= rank * block)) then
    print *, 'FAIL: local size', local_M, offset
    call MPI_Abort(MPI_COMM_WORLD, 1, ierr)
  end if
  alloc_local = fftwf_mpi_local_size_2d(M, L, MPI_COMM_WORLD, lm_f, off_f)
  if (lm_f /= local_M .or. off_f /= offset) then
    print *, 'FAIL: single-precision local size', lm_f, off_f
    call MPI_Abort(MPI_COMM_WORLD, 1, ierr)
  end if
  cdata = fftw_alloc_complex(max(alloc_local, 1_C_INTPTR_T))
  call c_f_pointer(cdata, a, [L, local_M])
  fwd = fftw_mpi_plan_dft_2d(M, L, a, a, MPI_COMM_WORLD, FFTW_FORWARD, FFTW_ESTIMATE)
  bwd = fftw_mpi_plan_dft_2d(M, L, a, a, MPI_COMM_WORLD, FFTW_BACKWARD, FFTW_ESTIMATE)
  allocate(orig(L, local_M))
  do j = 1, local_M
    do i = 1, L
      orig(i, j) = cmplx(sin(real(i + 3 * (j + offset), C_DOUBLE)), &
                         cos(real(i * (j + offset), C_DOUBLE)), C_DOUBLE_COMPLEX)
    end do
  end do
  a = orig
  call fftw_mpi_execute_dft(fwd, a, a)
  mysum = sum(orig)
  call MPI_Allreduce(mysum, total, 1, MPI_DOUBLE_COMPLEX, MPI_SUM, MPI_COMM_WORLD, ierr)
  dc = total
  if (local_M > 0 .and. offset == 0) dc = a(1, 1)
  call fftw_mpi_execute_dft(bwd, a, a)
  err = 0
  if (local_M > 0) err = maxval(abs(a / real(L * M, C_DOUBLE) - orig))
  err = max(err, abs(dc - total) / real(L * M, C_DOUBLE))
  call MPI_Allreduce(err, gerr, 1, MPI_DOUBLE_PRECISION, MPI_MAX, MPI_COMM_WORLD, ierr)
  call fftw_destroy_plan(fwd)
  call fftw_destroy_plan(bwd)
  call fftw_free(cdata)
  call fftw_mpi_cleanup()
  if (rank == 0) print '(a, i0, a, es9.2)', 'mpi_f03: np ', np, ', max error ', gerr
  if (gerr > 1e-13) then
    if (rank == 0) print *, 'FAIL'
    call MPI_Abort(MPI_COMM_WORLD, 1, ierr)
  end if
  call MPI_Finalize(ierr)
end program mpi_f03
