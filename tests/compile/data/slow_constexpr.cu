// A source that keeps NVRTC's front end busy for about 15 minutes (4096 constant evaluations of
// ~0.25 s each on a 2-core EPYC) in under 100 MB: the compile deadline test. Each evaluation stays
// just under EDG's constexpr step limit; a binary tree of templates keeps the nesting 12 deep.
constexpr unsigned long long spin(unsigned long long n) {
  unsigned long long s = 0;
  for (unsigned long long i = 0; i < n; ++i) s += i * i ^ (s >> 3);
  return s;
}

template <unsigned Lo, unsigned Hi, bool Leaf = (Hi - Lo == 1)>
struct Tree;
template <unsigned Lo, unsigned Hi>
struct Tree<Lo, Hi, true> {
  static constexpr unsigned long long value = spin(600000ull + Lo);
};
template <unsigned Lo, unsigned Hi>
struct Tree<Lo, Hi, false> {
  static constexpr unsigned long long value =
      Tree<Lo, (Lo + Hi) / 2>::value ^ Tree<(Lo + Hi) / 2, Hi>::value;
};

extern "C" __global__ void never_finishes(unsigned long long* out) { *out = Tree<0, 4096>::value; }
