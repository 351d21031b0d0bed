c     Legacy Fortran interface (FFTW manual, "Calling FFTW from Legacy
c     Fortran"): fixed form, include 'fftw3.f', integer*8 plans,
c     dfftw_* (double) and sfftw_* (single) subroutines.
      program f77test
      implicit none
      include 'fftw3.f'
      integer n1, n2, n, m1, m2, m3
      parameter (n1 = 8, n2 = 6, n = 12, m1 = 4, m2 = 3, m3 = 5)
      double complex a(n1, n2), b(n1, n2)
      double complex c(n), d(n), h(n/2 + 1)
      double complex e(m1, m2, m3), g(m1, m2, m3)
      double precision r(n), s(n)
      complex fa(n), fb(n)
      integer*8 plan
      integer i, j, k, inembed(1), onembed(1), nn(1), dims(3)

c     2-D complex, forward
      call dfftw_plan_dft_2d(plan, n1, n2, a, b, FFTW_FORWARD,
     &                       FFTW_ESTIMATE)
      do j = 1, n2
        do i = 1, n1
          a(i, j) = dcmplx(sin(0.3d0*i + 0.7d0*j), cos(0.2d0*i*j))
        end do
      end do
      call dfftw_execute_dft(plan, a, b)
      call dfftw_destroy_plan(plan)
      write(*, '(a)') '== d f77 dft_2d forward'
      do j = 1, n2
        do i = 1, n1
          write(*, 100) 'b(', i, ',', j, ')', b(i, j)
        end do
      end do

c     1-D complex, backward, dfftw_execute on the planned arrays.
c     The input is filled before planning (ESTIMATE leaves it alone):
c     dfftw_execute does not take c, so the compiler may keep stores
c     to c made after the plan call in registers (FFTW manual, 8.3).
      do i = 1, n
        c(i) = dcmplx(0.5d0*i - 1, sin(1.1d0*i))
      end do
      call dfftw_plan_dft_1d(plan, n, c, d, FFTW_BACKWARD,
     &                       FFTW_ESTIMATE)
      call dfftw_execute(plan)
      call dfftw_destroy_plan(plan)
      write(*, '(a)') '== d f77 dft_1d backward'
      do i = 1, n
        write(*, 101) 'd(', i, ')', d(i)
      end do

c     3-D complex, forward
      call dfftw_plan_dft_3d(plan, m1, m2, m3, e, g, FFTW_FORWARD,
     &                       FFTW_ESTIMATE)
      do k = 1, m3
        do j = 1, m2
          do i = 1, m1
            e(i, j, k) = dcmplx(cos(0.4d0*i*k + j), 0.1d0*(i + 2*j - k))
          end do
        end do
      end do
      call dfftw_execute_dft(plan, e, g)
      call dfftw_destroy_plan(plan)
      write(*, '(a)') '== d f77 dft_3d forward'
      do k = 1, m3
        do j = 1, m2
          do i = 1, m1
            write(*, 102) 'g(', i, ',', j, ',', k, ')', g(i, j, k)
          end do
        end do
      end do

c     the same array backward, through dfftw_plan_dft (rank n)
      dims(1) = m1
      dims(2) = m2
      dims(3) = m3
      call dfftw_plan_dft(plan, 3, dims, e, g, FFTW_BACKWARD,
     &                    FFTW_ESTIMATE)
      call dfftw_execute_dft(plan, e, g)
      call dfftw_destroy_plan(plan)
      write(*, '(a)') '== d f77 dft rank 3 backward'
      do k = 1, m3
        do j = 1, m2
          do i = 1, m1
            write(*, 102) 'g(', i, ',', j, ',', k, ')', g(i, j, k)
          end do
        end do
      end do

c     r2c and c2r, 1-D
      call dfftw_plan_dft_r2c_1d(plan, n, r, h, FFTW_ESTIMATE)
      do i = 1, n
        r(i) = sin(0.9d0*i) + 0.25d0*i
      end do
      call dfftw_execute_dft_r2c(plan, r, h)
      call dfftw_destroy_plan(plan)
      write(*, '(a)') '== d f77 dft_r2c_1d'
      do i = 1, n/2 + 1
        write(*, 101) 'h(', i, ')', h(i)
      end do
      call dfftw_plan_dft_c2r_1d(plan, n, h, s, FFTW_ESTIMATE)
      call dfftw_execute_dft_c2r(plan, h, s)
      call dfftw_destroy_plan(plan)
      write(*, '(a)') '== d f77 dft_c2r_1d'
      do i = 1, n
        write(*, 103) 's(', i, ')', s(i)
      end do

c     r2r, 1-D REDFT10 (DCT-II)
      call dfftw_plan_r2r_1d(plan, n, r, s, FFTW_REDFT10,
     &                       FFTW_ESTIMATE)
      call dfftw_execute_r2r(plan, r, s)
      call dfftw_destroy_plan(plan)
      write(*, '(a)') '== d f77 r2r_1d REDFT10'
      do i = 1, n
        write(*, 103) 's(', i, ')', s(i)
      end do

c     advanced: 2 transforms of 6 (the columns of c viewed as 6x2)
      nn(1) = 6
      inembed(1) = 6
      onembed(1) = 6
      do i = 1, n
        c(i) = dcmplx(cos(0.5d0*i), 1.0d0/i)
      end do
      call dfftw_plan_many_dft(plan, 1, nn, 2, c, inembed, 1, 6,
     &                         d, onembed, 1, 6, FFTW_FORWARD,
     &                         FFTW_ESTIMATE)
      call dfftw_execute_dft(plan, c, d)
      call dfftw_destroy_plan(plan)
      write(*, '(a)') '== d f77 plan_many_dft'
      do i = 1, n
        write(*, 101) 'd(', i, ')', d(i)
      end do

c     single precision
      call sfftw_plan_dft_1d(plan, n, fa, fb, FFTW_FORWARD,
     &                       FFTW_ESTIMATE)
      do i = 1, n
        fa(i) = cmplx(sin(0.6*i), 0.3*i)
      end do
      call sfftw_execute_dft(plan, fa, fb)
      call sfftw_destroy_plan(plan)
      write(*, '(a)') '== f f77 sfftw dft_1d'
      do i = 1, n
        write(*, 104) 'fb(', i, ')', fb(i)
      end do

      call dfftw_cleanup()
  100 format(a, i0, a, i0, a, 2es26.17e3)
  101 format(a, i0, a, 2es26.17e3)
  102 format(a, i0, a, i0, a, i0, a, 2es26.17e3)
  103 format(a, i0, a, es26.17e3)
  104 format(a, i0, a, 2es17.8e3)
      end
