/* version.h - the grader's version, part of every report and of the reference cache key */
#ifndef GRADER_VERSION_H
#define GRADER_VERSION_H
#define GRADER_VERSION "0.1.0"
#endif
