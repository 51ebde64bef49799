#!/usr/bin/env bash
# ctest install_embed: foh as other programs get it (docs/embedding.md).
#  1. `cmake --install` into a scratch prefix: the library (its version and
#     SONAME), every public header, foh, the data under share/foh, foh.pc
#     and the CMake package;
#  2. tests/embed/embed.c, which plays a game through the public API with
#     its own bot in seat 1 and the library's by seat spec in the others,
#     built against the prefix twice - by `pkg-config --cflags --libs foh`
#     and by tests/embed/CMakeLists.txt's find_package(foh) - and run: both
#     play the same game to its end;
#  3. the installed foh, run from a copy of the prefix at another path (the
#     first prefix removed) outside the source tree: `foh play --players 4
#     --seed 1` prints the game ./build/foh prints (its card set folder
#     aside), reading nothing of the source tree (strace, where it runs);
#     with FOH_DATA_DIR naming an empty folder it exits 1 naming that place.
# Usage: install_embed.sh BUILD_DIR SOURCE_DIR CMAKE CC PKG_CONFIG LIBDIR VERSION SOVERSION [CFLAGS]
# CFLAGS: what the embedder is compiled with besides pkg-config's or the
# package's (the sanitizer build's -fsanitize: a library built with the
# sanitizers needs their runtime first in the program).
set -uo pipefail
build=$1 src=$2 cmake=$3 cc=$4 pkgconfig=$5 libdir=$6 version=$7 soversion=$8 extra=${9:-}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/foh-install.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
fail() { echo "install_embed: $*" >&2; exit 1; }

# 1. Install.
prefix=$tmp/prefix
"$cmake" --install "$build" --prefix "$prefix" >"$tmp/install.log" 2>&1 || { cat "$tmp/install.log"; fail "cmake --install failed"; }
lib=$prefix/$libdir/libfoh.so.$version
[ -f "$lib" ] || fail "no $lib"
[ "$(readlink "$prefix/$libdir/libfoh.so")" = "libfoh.so.$soversion" ] || fail "libfoh.so does not link to libfoh.so.$soversion"
soname=$(readelf -d "$lib" | sed -n 's/.*Library soname: \[\(.*\)\]/\1/p')
[ "$soname" = "libfoh.so.$soversion" ] || fail "SONAME is '$soname', not libfoh.so.$soversion"
for h in "$src"/core/include/foh/*.h; do
  cmp -s "$h" "$prefix/include/foh/${h##*/}" || fail "header foh/${h##*/} not installed"
done
data=$prefix/share/foh
for f in cards/base/game.yaml cards/faith/game.yaml cards/civ-draft/game.yaml variants/market-6/variant.yaml \
         scripts/effects.lua scripts/API.md scripts/types/foh.lua schemas/card-file.schema.json \
         "$libdir/pkgconfig/foh.pc" "$libdir/cmake/foh/fohConfig.cmake" "$libdir/cmake/foh/fohConfigVersion.cmake" \
         "$libdir/cmake/foh/fohTargets.cmake" bin/foh; do
  case $f in cards/* | variants/* | scripts/* | schemas/*) f=share/foh/$f ;; esac
  [ -f "$prefix/$f" ] || fail "not installed: $f"
done
echo "installed: $(cd "$prefix" && find . -type f | wc -l) files, SONAME $soname"

# 2. The embedder, built both ways.
export PKG_CONFIG_PATH=$prefix/$libdir/pkgconfig
flags=$("$pkgconfig" --cflags --libs foh) || fail "pkg-config --cflags --libs foh failed"
pcdata=$("$pkgconfig" --variable=pkgdatadir foh)
[ "$("$pkgconfig" --modversion foh)" = "$version" ] || fail "foh.pc's version is not $version"
# shellcheck disable=SC2086 # the flags are words
"$cc" -std=c11 -Wall -Wextra -Werror $extra -o "$tmp/embed-pc" "$src/tests/embed/embed.c" $flags \
  -Wl,-rpath,"$prefix/$libdir" || fail "the embedder does not build with pkg-config ($flags)"
"$cmake" -S "$src/tests/embed" -B "$tmp/embed-cmake" -DCMAKE_C_COMPILER="$cc" -DCMAKE_PREFIX_PATH="$prefix" \
  -DCMAKE_C_FLAGS="$extra" \
  -DCMAKE_BUILD_TYPE=Release >"$tmp/cmake.log" 2>&1 &&
  "$cmake" --build "$tmp/embed-cmake" >>"$tmp/cmake.log" 2>&1 || { cat "$tmp/cmake.log"; fail "the embedder does not build with find_package(foh)"; }
(cd "$tmp" && ./embed-pc "$pcdata") >"$tmp/pc.out" || { cat "$tmp/pc.out"; fail "embed (pkg-config build) failed"; }
(cd "$tmp" && ./embed-cmake/embed) >"$tmp/cmake.out" || { cat "$tmp/cmake.out"; fail "embed (find_package build) failed"; }
cat "$tmp/pc.out"
cmp -s "$tmp/pc.out" "$tmp/cmake.out" || { diff "$tmp/pc.out" "$tmp/cmake.out"; fail "the two builds played different games"; }
grep -q "^libfoh $version, headers $version$" "$tmp/pc.out" || fail "embed does not report libfoh $version"
grep -Eq "^game over after [0-9]+ turns, [0-9]+ decisions$" "$tmp/pc.out" || fail "embed's game did not end"
[ "$(grep -Ec '^P[1-4] (lookahead|greedy|random) +[0-9]+ VP' "$tmp/pc.out")" = 4 ] || fail "embed printed no 4 scores"
grep -Eq "^P1 lookahead" "$tmp/pc.out" || fail "embed's own bot did not play seat 1"
[ "$(grep -c ' winner$' "$tmp/pc.out")" -ge 1 ] || fail "embed's game has no winner"

# 3. The installed foh, moved away from where it was installed.
moved=$tmp/moved
cp -a "$prefix" "$moved" && rm -rf "$prefix" || fail "cannot move the prefix"
(cd "$src" && "$build/foh" play --players 4 --seed 1) >"$tmp/build.out" || fail "./build/foh play failed"
run_moved() { (cd "$tmp" && "$@" "$moved/bin/foh" play --players 4 --seed 1); }
if strace -f -o "$tmp/strace.log" -e trace=%file true 2>/dev/null; then
  # LeakSanitizer cannot run under ptrace: the sanitizer build checks leaks in the runs without strace.
  ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" run_moved strace -f -o "$tmp/strace.log" -e trace=%file \
    >"$tmp/moved.out" || fail "the moved foh failed"
  if grep -F "\"$src/" "$tmp/strace.log" | head -3 | grep .; then
    fail "the installed foh read the source tree $src"
  fi
  grep -Fq "\"$moved/share/foh/cards/base/game.yaml\"" "$tmp/strace.log" || fail "the moved foh did not read its own base set"
  echo "strace: the installed foh opened nothing under $src"
else
  run_moved >"$tmp/moved.out" || fail "the moved foh failed"
  echo "strace cannot run here: the source tree's reads are not checked"
fi
real_src=$(cd "$src/cards/base" && pwd -P) real_moved=$(cd "$moved/share/foh/cards/base" && pwd -P)
grep -Fq "card set $real_moved," "$tmp/moved.out" || fail "the moved foh did not play its own card set: $(head -1 "$tmp/moved.out")"
sed "s|card set $real_src,|card set DATA,|" "$tmp/build.out" >"$tmp/a"
sed "s|card set $real_moved,|card set DATA,|" "$tmp/moved.out" >"$tmp/b"
cmp -s "$tmp/a" "$tmp/b" || { diff "$tmp/a" "$tmp/b" | head; fail "the installed foh played another game than ./build/foh"; }
echo "foh play --players 4 --seed 1 from the moved prefix: the same $(wc -l <"$tmp/b") lines as ./build/foh"

mkdir "$tmp/empty"
(cd "$tmp" && FOH_DATA_DIR=$tmp/empty "$moved/bin/foh" play --players 4 --seed 1) >/dev/null 2>"$tmp/err"
st=$?
[ "$st" = 1 ] || fail "foh with FOH_DATA_DIR naming an empty folder exited $st, not 1"
grep -Fq "cannot find foh's data" "$tmp/err" && grep -Fq "$tmp/empty/cards/base" "$tmp/err" ||
  fail "foh did not say where it looked: $(cat "$tmp/err")"
echo "no data: $(cat "$tmp/err")"
echo "install_embed: ok"
