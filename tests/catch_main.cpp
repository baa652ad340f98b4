// The one Catch2 main every suite links.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
