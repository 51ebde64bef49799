/* The paired estimates of foh tune (tools/tune/tune_paired.c) on numbers
 * worked out by hand. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "tune/tune_paired.h"

#define NEAR(a, b) assert_true(fabs((a) - (b)) < 1e-12)

/* d = zb - za = {1, 0, 2, 1}: mean 1, sample variance 2/3, of the mean 1/6;
 * as independent samples: var(za)/4 + var(zb)/4 = 5/12 + 3/4. */
static void paired_known_numbers(void **state)
{
    (void)state;
    const double za[] = {1, 2, 3, 4}, zb[] = {2, 2, 5, 5};
    tune_pair p = tune_paired(za, zb, 4);
    NEAR(p.diff, 1);
    NEAR(p.var, 1.0 / 6);
    NEAR(p.var_unpaired, 5.0 / 12 + 3.0 / 4);
    assert_int_equal(p.n, 4);
}

/* Shared luck cancels: B = A + 1 in every game has no paired variance. */
static void paired_shared_luck(void **state)
{
    (void)state;
    const double za[] = {3, -1, 7, 0, 2}, zb[] = {4, 0, 8, 1, 3};
    tune_pair p = tune_paired(za, zb, 5);
    NEAR(p.diff, 1);
    NEAR(p.var, 0);
    assert_true(p.var_unpaired > 1);
}

/* One game: a difference, no variance. */
static void paired_one_game(void **state)
{
    (void)state;
    const double za[] = {2}, zb[] = {5};
    tune_pair p = tune_paired(za, zb, 1);
    NEAR(p.diff, 3);
    NEAR(p.var, 0);
    NEAR(p.var_unpaired, 0);
}

/* R = 2/3 over W = 3 tries in 4 games: z = R + (u - R w) / (3/4). */
static void ratio_values_known(void **state)
{
    (void)state;
    const double u[] = {1, 0, 1, 0}, w[] = {1, 1, 1, 0};
    double z[4], m, v;
    assert_int_equal(tune_ratio_values(u, w, 4, 100, z), 1);
    NEAR(z[0], 100 * 10.0 / 9);
    NEAR(z[1], 100 * -2.0 / 9);
    NEAR(z[2], 100 * 10.0 / 9);
    NEAR(z[3], 100 * 2.0 / 3);
    tune_mean_var(z, 4, &m, &v);
    NEAR(m, 100 * 2.0 / 3);
    const double none[] = {0, 0, 0, 0};
    z[0] = 42;
    assert_int_equal(tune_ratio_values(u, none, 4, 100, z), 0);
    NEAR(z[0], 42);
}

static void combine_spread(void **state)
{
    (void)state;
    const double a[] = {1, 2}, b[] = {3, 5};
    double z[2];
    tune_combine(z, a, 1, b, -1, 2);
    NEAR(z[0], -2);
    NEAR(z[1], -3);
    tune_combine(z, a, 2, NULL, 0, 2);
    NEAR(z[1], 4);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(paired_known_numbers), cmocka_unit_test(paired_shared_luck),
        cmocka_unit_test(paired_one_game),      cmocka_unit_test(ratio_values_known),
        cmocka_unit_test(combine_spread),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
