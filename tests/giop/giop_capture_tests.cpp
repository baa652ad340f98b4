// placeholder until the omniORB captures land
#include <catch2/catch.hpp>
