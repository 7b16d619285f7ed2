/* Counting and finding the set bits of a card mask, spelled once for every compiler: the GCC and
 * Clang builtins, MSVC's intrinsics, or plain C elsewhere (and wherever PASUR_PORTABLE_BITS is
 * defined, as a test does to check it). Every other C file uses these alone. */
#ifndef PASUR_BITS_H
#define PASUR_BITS_H

#include <stdint.h>

/* How many bits are set, in plain arithmetic (no POPCNT instruction assumed). */
static inline int bits_count_plain(uint64_t m) {
    m = m - ((m >> 1) & 0x5555555555555555ULL);
    m = (m & 0x3333333333333333ULL) + ((m >> 2) & 0x3333333333333333ULL);
    m = (m + (m >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
    return (int)((m * 0x0101010101010101ULL) >> 56);
}

#if (defined(__GNUC__) || defined(__clang__)) && !defined(PASUR_PORTABLE_BITS)

/* How many bits are set: the builtin where it is one instruction; on x86-64 without POPCNT (the
 * wheels' baseline) the builtin is a library call, slower than the plain sum. */
#if defined(__x86_64__) && !defined(__POPCNT__)
static inline int bits_count(uint64_t m) { return bits_count_plain(m); }
#else
static inline int bits_count(uint64_t m) { return __builtin_popcountll(m); }
#endif
/* The lowest set bit's index (m != 0). */
static inline int bits_lowest(uint64_t m) { return __builtin_ctzll(m); }
/* The highest set bit's index (m != 0). */
static inline int bits_highest(uint64_t m) { return 63 - __builtin_clzll(m); }

#else

static inline int bits_count(uint64_t m) { return bits_count_plain(m); }

#if defined(_MSC_VER) && defined(_M_X64) && !defined(PASUR_PORTABLE_BITS)
#include <intrin.h>
static inline int bits_lowest(uint64_t m) {
    unsigned long index;
    _BitScanForward64(&index, m);
    return (int)index;
}
static inline int bits_highest(uint64_t m) {
    unsigned long index;
    _BitScanReverse64(&index, m);
    return (int)index;
}
#else
static inline int bits_lowest(uint64_t m) {
    int index = 0;
    for (; !(m & 1); m >>= 1) index++;
    return index;
}
static inline int bits_highest(uint64_t m) {
    int index = 63;
    for (; !(m >> 63); m <<= 1) index--;
    return index;
}
#endif

#endif

#endif
