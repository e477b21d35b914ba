// Tests of the partial-JSON parser (written in part C).
