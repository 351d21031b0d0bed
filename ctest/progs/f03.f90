! Modern Fortran interface (FFTW manual, "Calling FFTW from Modern Fortran"):
! iso_c_binding, include 'fftw3.f03', fftw_alloc_* + c_f_pointer, r2c/c2r 2-D with the
! new-array execute functions, a complex 1-D DFT and single precision.
program f03test
  use, intrinsic :: iso_c_binding
  implicit none
  include 'fftw3.f03'
  integer(C_INT), parameter :: n1 = 10, n2 = 6, n = 16
  type(C_PTR) :: pr, pc, plan, iplan, pz, pw, pfz, pfw
  real(C_DOUBLE), pointer :: r(:,:)
  complex(C_DOUBLE_COMPLEX), pointer :: c(:,:), z(:), w(:)
  complex(C_FLOAT_COMPLEX), pointer :: fz(:), fw(:)
  integer :: i, j

  ! r(n1, n2) in Fortran order is an n2 x n1 array to FFTW (dimensions reversed)
  pr = fftw_alloc_real(int(n1 * n2, C_SIZE_T))
  pc = fftw_alloc_complex(int((n1 / 2 + 1) * n2, C_SIZE_T))
  call c_f_pointer(pr, r, [n1, n2])
  call c_f_pointer(pc, c, [n1 / 2 + 1, n2])
  plan = fftw_plan_dft_r2c_2d(n2, n1, r, c, FFTW_ESTIMATE)
  iplan = fftw_plan_dft_c2r_2d(n2, n1, c, r, FFTW_ESTIMATE)
  do j = 1, n2
    do i = 1, n1
      r(i, j) = sin(0.37d0 * i + 0.11d0 * j * j) + 0.1d0 * i
    end do
  end do
  call fftw_execute_dft_r2c(plan, r, c)
  print '(A)', '== d f03 dft_r2c_2d'
  do j = 1, n2
    do i = 1, n1 / 2 + 1
      print '(A,I0,A,I0,A,2ES26.17E3)', 'c(', i, ',', j, ')', c(i, j)
    end do
  end do
  call fftw_execute_dft_c2r(iplan, c, r)
  print '(A)', '== d f03 dft_c2r_2d'
  do j = 1, n2
    do i = 1, n1
      print '(A,I0,A,I0,A,ES26.17E3)', 'r(', i, ',', j, ')', r(i, j)
    end do
  end do
  call fftw_destroy_plan(plan)
  call fftw_destroy_plan(iplan)
  call fftw_free(pr)
  call fftw_free(pc)

  ! complex 1-D, backward
  pz = fftw_alloc_complex(int(n, C_SIZE_T))
  pw = fftw_alloc_complex(int(n, C_SIZE_T))
  call c_f_pointer(pz, z, [n])
  call c_f_pointer(pw, w, [n])
  plan = fftw_plan_dft_1d(n, z, w, FFTW_BACKWARD, FFTW_MEASURE)
  do i = 1, n
    z(i) = cmplx(cos(0.8d0 * i), 1d0 / i, C_DOUBLE_COMPLEX)
  end do
  call fftw_execute_dft(plan, z, w)
  print '(A)', '== d f03 dft_1d backward'
  do i = 1, n
    print '(A,I0,A,2ES26.17E3)', 'w(', i, ')', w(i)
  end do
  call fftw_destroy_plan(plan)
  call fftw_free(pz)
  call fftw_free(pw)

  ! single precision
  pfz = fftwf_alloc_complex(int(n, C_SIZE_T))
  pfw = fftwf_alloc_complex(int(n, C_SIZE_T))
  call c_f_pointer(pfz, fz, [n])
  call c_f_pointer(pfw, fw, [n])
  plan = fftwf_plan_dft_1d(n, fz, fw, FFTW_FORWARD, FFTW_ESTIMATE)
  do i = 1, n
    fz(i) = cmplx(sin(0.5 * i), 0.25 * i, C_FLOAT_COMPLEX)
  end do
  call fftwf_execute_dft(plan, fz, fw)
  print '(A)', '== f f03 fftwf_dft_1d'
  do i = 1, n
    print '(A,I0,A,2ES17.8E3)', 'fw(', i, ')', fw(i)
  end do
  call fftwf_destroy_plan(plan)
  call fftwf_free(pfz)
  call fftwf_free(pfw)
  call fftw_cleanup()
end program
