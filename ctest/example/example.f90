! fftx example through FFTW's Fortran 2003 interface: a 1-D complex DFT checked against a direct
! DFT.   cmake -S . -B build && cmake --build build --target run-example-fortran
program fftx_example_fortran
  use, intrinsic :: iso_c_binding
  implicit none
  include 'fftw3.f03'
  integer, parameter :: n = 24
  real(C_DOUBLE), parameter :: pi = 3.14159265358979323846_C_DOUBLE
  type(C_PTR) :: pin, pout, plan
  complex(C_DOUBLE_COMPLEX), pointer :: in(:), out(:)
  complex(C_DOUBLE_COMPLEX) :: x
  real(C_DOUBLE) :: err, scale
  integer :: j, k

  pin = fftw_alloc_complex(int(n, C_SIZE_T))
  pout = fftw_alloc_complex(int(n, C_SIZE_T))
  call c_f_pointer(pin, in, [n])
  call c_f_pointer(pout, out, [n])
  plan = fftw_plan_dft_1d(n, in, out, FFTW_FORWARD, FFTW_ESTIMATE)
  do j = 1, n
    in(j) = cmplx(sin(0.3d0 * (j - 1)) + 0.25d0 * (j - 1), cos(0.7d0 * (j - 1)), C_DOUBLE_COMPLEX)
  end do
  call fftw_execute_dft(plan, in, out)

  err = 0
  scale = 0
  do k = 0, n - 1
    x = 0
    do j = 0, n - 1
      x = x + in(j + 1) * exp(cmplx(0d0, -2 * pi * mod(j * k, n) / n, C_DOUBLE_COMPLEX))
    end do
    err = max(err, abs(out(k + 1) - x))
    scale = max(scale, abs(x))
  end do
  print '(A,I0,A)', 'fftw_plan_dft_1d(n=', n, ', FFTW_FORWARD), first outputs:'
  do k = 0, 3
    print '(A,I0,A,2F18.12)', '  X[', k, '] =', out(k + 1)
  end do
  print '(A,ES10.3,A,L1)', 'max |X - direct DFT| relative =', err / scale, ', match: ', err <= 1d-12 * scale
  call fftw_destroy_plan(plan)
  call fftw_free(pin)
  call fftw_free(pout)
  if (err > 1d-12 * scale) stop 1
end program
