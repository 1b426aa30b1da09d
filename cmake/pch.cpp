// The unit that builds the precompiled header of cmake/pch.cmake; it has no code of its own.
