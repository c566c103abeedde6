"""The set under the table: the tile registry, enrolment, the wall map and the set builder."""
